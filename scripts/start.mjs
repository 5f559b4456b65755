#!/usr/bin/env node
/**
 * `npm start`: builds the web app and the server when missing or stale (scripts/web-build.mjs,
 * scripts/server-build.mjs), then runs the compiled server, `node apps/server/dist/main.js`.
 * Signals are passed on so Ctrl-C and SIGTERM stop it gracefully.
 */
import { spawn } from 'node:child_process';
import { ensureServerBuilt, serverEntry } from './server-build.mjs';
import { ensureWebBuilt, root } from './web-build.mjs';

ensureWebBuilt();
await ensureServerBuilt();
const server = spawn(process.execPath, ['--enable-source-maps', serverEntry], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
