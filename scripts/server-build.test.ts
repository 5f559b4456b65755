/**
 * The production server build loads no demo code unless DEMO=on: walking the static imports of the
 * compiled main.js (esbuild's metafile of the same build as `npm run build`), no chunk holds the
 * simulator (apps/simulator) or the server's demo room (apps/server/src/demo/: the WeChat Pay sandbox,
 * the demo push receiver, the demo histories, the simulated keypad). Those live in chunks that only a dynamic import behind a DEMO check loads.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { serverBuildOptions } from './server-build.mjs';

/** Source files of demo-only code (relative to the repository): the simulator and the server's demo room. */
const DEMO_ONLY = [/^apps\/simulator\//, /^apps\/server\/src\/demo\//];

/** Inputs of every output reachable from `entry` through static imports. */
function staticInputs(metafile: Metafile, entry: string): string[] {
  const outputs = metafile.outputs;
  const start = Object.keys(outputs).find((key) => outputs[key]?.entryPoint === entry);
  const seen = new Set<string>();
  const stack = start ? [start] : [];
  for (let key = stack.pop(); key !== undefined; key = stack.pop()) {
    if (seen.has(key)) continue;
    seen.add(key);
    for (const item of outputs[key]?.imports ?? []) if (item.kind === 'import-statement' && outputs[item.path]) stack.push(item.path);
  }
  return [...seen].flatMap((key) => Object.keys(outputs[key]?.inputs ?? {}));
}

describe('server build', () => {
  it('statically loads no demo-only module from main.js', async () => {
    const options = serverBuildOptions(join(tmpdir(), 'iot-server-build-test'));
    const result = await build({ ...options, write: false, metafile: true, sourcemap: false });
    const inputs = staticInputs(result.metafile, 'apps/server/src/main.ts');
    expect(inputs.length).toBeGreaterThan(300);
    expect(inputs).toContain('apps/server/src/modules/billing/routes.ts');
    expect(inputs.filter((input) => DEMO_ONLY.some((pattern) => pattern.test(input)))).toEqual([]);
    const all = Object.values(result.metafile.outputs).flatMap((output) => Object.keys(output.inputs));
    expect(all.some((input) => input.startsWith('apps/simulator/'))).toBe(true); // still built, for DEMO=on
  }, 60_000);
});
