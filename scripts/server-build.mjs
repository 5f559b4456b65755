#!/usr/bin/env node
/**
 * Compiles the server once into apps/server/dist (esbuild): apps/server/src/main.ts and the workspace
 * packages it uses (@iot/contract; @iot/simulator and every demo-only module in chunks loaded only with
 * DEMO=on, checked by scripts/server-build.test.ts) become
 * plain ES modules; npm dependencies stay imports from node_modules. The worker thread's entry
 * (apps/server/src/workers/spreadsheet-worker.ts) becomes dist/spreadsheet-worker.js beside
 * main.js, where workers/pool.ts looks for it. The SQL migrations are copied
 * next to them. `npm start` runs `node apps/server/dist/main.js`, building first when the build is
 * missing or older than its sources (`ensureServerBuilt`). Run directly (`npm run build`) to build.
 */
import { cpSync, existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { newestMtime, root } from './web-build.mjs';

export const serverEntry = join(root, 'apps/server/dist/main.js');
const sources = ['apps/server/src', 'apps/server/package.json', 'packages/contract/src', 'apps/simulator/src'].map((p) => join(root, p));

/** Keeps every bare import (npm packages, node: builtins) external except our own workspace packages. */
const externalDependencies = {
  name: 'external-dependencies',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@iot/') ? undefined : { path: args.path, external: true }));
  },
};

/** esbuild's options for the server build into `outdir` (scripts/server-build.test.ts reads the same build). */
export function serverBuildOptions(outdir) {
  return {
    entryPoints: { main: join(root, 'apps/server/src/main.ts'), 'spreadsheet-worker': join(root, 'apps/server/src/workers/spreadsheet-worker.ts') },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [externalDependencies],
  };
}

/** Builds apps/server/dist; resolves when written, rejects with esbuild's errors. */
export async function buildServer() {
  const outdir = join(root, 'apps/server/dist');
  rmSync(outdir, { recursive: true, force: true });
  await build(serverBuildOptions(outdir));
  cpSync(join(root, 'apps/server/src/db/migrations'), join(outdir, 'migrations'), { recursive: true });
}

/** Builds the server when the build is missing or older than its sources; SKIP_SERVER_BUILD=1 skips the check. */
export async function ensureServerBuilt() {
  if (process.env.SKIP_SERVER_BUILD === '1') return;
  const builtAt = existsSync(serverEntry) ? statSync(serverEntry).mtimeMs : 0;
  if (builtAt > 0 && sources.every((source) => newestMtime(source) <= builtAt)) return;
  console.log('Building the server (apps/server/dist)...');
  const started = Date.now();
  await buildServer();
  console.log(`Built the server in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildServer();
