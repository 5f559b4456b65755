import { describe, expect, it } from 'vitest';
import { versionInput } from './api/firmware.js';
import { compareVersions, formatVersion, normaliseVersion } from './version.js';

describe('firmware versions', () => {
  it('normalises a leading V and build metadata away; refuses what is no semantic version', () => {
    expect(normaliseVersion('V1.4.0')).toBe('1.4.0');
    expect(normaliseVersion(' v1.4.0 ')).toBe('1.4.0');
    expect(normaliseVersion('9.333.1+build.2')).toBe('9.333.1');
    expect(normaliseVersion('2.0.0-rc.1+b7')).toBe('2.0.0-rc.1');
    for (const bad of ['1.4', '01.2.3', 'v 1.2.3', '=1.2.3', 'V', '', '1.2.3 beta', `1.2.3-${'a'.repeat(64)}`]) expect([bad, normaliseVersion(bad)]).toEqual([bad, undefined]);
  });

  it('shows every form one way, V + canonical; other text as it is', () => {
    expect(['1.2.3', 'V1.2.3', 'v1.2.3+x'].map(formatVersion)).toEqual(['V1.2.3', 'V1.2.3', 'V1.2.3']);
    expect(formatVersion('V1')).toBe('V1');
    expect(formatVersion(null)).toBe('');
  });

  it('compares by semver precedence', () => {
    expect(compareVersions('9.333.1', '9.333.1+build.2')).toBe(0);
    expect(compareVersions('V1.10.0', '1.9.0')).toBe(1);
    expect(compareVersions('1.9.0-rc.1', '1.9.0')).toBe(-1);
  });

  it('parses a request field to the canonical form', () => {
    expect(versionInput.parse('V2.1.0+7')).toBe('2.1.0');
    expect(versionInput.safeParse('2.1').error?.issues[0]?.message).toBe('version.semver');
  });
});
