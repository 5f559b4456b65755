/**
 * The Node versions package.json `engines` promises: the lowest release of
 * each line it names must satisfy the `engines.node` range of every package in package-lock.json, so
 * `npm ci` warns about no dependency on a supported Node, and the Node running the tests must be one
 * of them (CI runs the unit and api-pglite projects under Node 20 and Node 24, .ci/run).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> };
const supported = manifest.engines.node;
/** The lowest version of each alternative of the range: `^20.19.0 || >=24` -> 20.19.0, 24.0.0. */
const lowest = supported.split('||').map((part) => semver.minVersion(part.trim())?.version ?? part);

describe('Node engines', () => {
  it('names each supported line from its lowest release, Node 20 and 24 among them', () => {
    expect(lowest.map((version) => semver.major(version))).toEqual(expect.arrayContaining([20, 24]));
    expect(semver.satisfies(process.version, supported)).toBe(true);
  });

  it.each(lowest)('every locked package accepts Node %s', (version) => {
    const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
      return range && !semver.satisfies(version, range) ? [`${path.replace(/^.*node_modules\//, '')}@${entry.version} wants ${range}`] : [];
    });
    expect(refusing).toEqual([]);
  });
});
