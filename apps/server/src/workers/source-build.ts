/**
 * The worker file when the server runs from its TypeScript sources (tests, `tsx`, the benches): worker
 * threads do not get tsx's module hooks on Node 20, so the worker entry is bundled with esbuild the way
 * scripts/server-build.mjs bundles it for `npm start` (npm packages stay imports), into
 * apps/server/node_modules/.cache, where those imports resolve. The file is named by its content's
 * hash and written atomically, so parallel test processes share it and a changed source gets a new one.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const CACHE = fileURLToPath(new URL('../../node_modules/.cache/iot-workers/', import.meta.url));

/** Bundles `entry` (a .ts worker beside this file); resolves to the bundle's file URL. */
export async function bundleWorker(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true, format: 'esm', platform: 'node', target: 'node20', write: false, logLevel: 'warning',
    plugins: [{
      name: 'external-dependencies',
      setup(builder) {
        builder.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@iot/') ? undefined : { path: args.path, external: true }));
      },
    }],
  });
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error(`esbuild wrote nothing for ${entry}`);
  const file = `${CACHE}${entry.replace(/^.*\//, '').replace(/\.ts$/, '')}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  if (!existsSync(file)) {
    mkdirSync(CACHE, { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  return new URL(`file://${file}`).href;
}
