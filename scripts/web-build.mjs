/**
 * Builds the web app (apps/web/dist) when the build is missing or older than its sources or the
 * contract. Shared by `npm start` and `npm test`. SKIP_WEB_BUILD=1 skips the check. Quiet: Vite's
 * list of every asset (~570 lines) is left out, warnings and errors are shown, and one line says how
 * long the build took (`npm start` ends with the URL and the sign-in, not with asset sizes).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), 0);
}

/** Builds the web app if needed; exits the process when the build fails. */
export function ensureWebBuilt() {
  if (process.env.SKIP_WEB_BUILD === '1') return;
  const builtIndex = join(root, 'apps/web/dist/index.html');
  const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/vite.chunks.ts', 'apps/web/vite.html.ts', 'packages/contract/src'].map((p) => join(root, p));
  const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
  if (builtAt > 0 && sources.every((source) => newestMtime(source) <= builtAt)) return;
  console.log('Building the web app (apps/web)...');
  const started = Date.now();
  const vite = join(root, 'node_modules/vite/bin/vite.js');
  const build = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: join(root, 'apps/web'), stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  console.log(`Built the web app in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
