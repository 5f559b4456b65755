#!/usr/bin/env node
/**
 * `npm start`: builds the web app if needed, then runs the server (apps/server/src/main.ts) with tsx.
 * Signals are passed on so Ctrl-C stops it cleanly.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureWebBuilt, root } from './web-build.mjs';

ensureWebBuilt();
const server = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'apps/server/src/main.ts')], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
