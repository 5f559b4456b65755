#!/usr/bin/env node
/**
 * `npm test`: builds the web app if needed (the e2e tests serve it), type-checks every workspace, lints
 * (Biome, biome.json; knip, knip.jsonc), then runs every vitest project:
 * unit, api-pglite, api-postgres and e2e. Extra arguments go to vitest (e.g. `npm test -- --project unit`).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureWebBuilt, root } from './web-build.mjs';

ensureWebBuilt();
if (process.argv.length <= 2) {
  console.log('Type-checking every workspace...');
  const typecheck = spawnSync('npm', ['run', 'typecheck', '--silent'], { cwd: root, stdio: 'inherit' });
  if (typecheck.status !== 0) process.exit(typecheck.status ?? 1);
  console.log('Linting (biome lint)...');
  const lint = spawnSync('npm', ['run', 'lint', '--silent'], { cwd: root, stdio: 'inherit' });
  if (lint.status !== 0) process.exit(lint.status ?? 1);
}
const args = ['run', '--reporter=default', `--reporter=${join(root, 'scripts/summary-reporter.ts')}`, ...process.argv.slice(2)];
const result = spawnSync(join(root, 'node_modules/.bin/vitest'), args, { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
