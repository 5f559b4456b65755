import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretBox, parseSecretKey, secretBoxFor } from './secret-box.js';

const dir = mkdtempSync(join(tmpdir(), 'secret-box-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('secret box (AES-256-GCM)', () => {
  it('round-trips, never contains the clear text and uses a fresh IV each time', () => {
    const box = createSecretBox(randomBytes(32));
    const a = box.seal('123456');
    const b = box.seal('123456');
    expect(a).toMatch(/^v1\./);
    expect(a).not.toContain('123456');
    expect(a).not.toBe(b);
    expect(box.open(a)).toBe('123456');
  });

  it('refuses a wrong key, a tampered value and garbage', () => {
    const box = createSecretBox(randomBytes(32));
    const sealed = box.seal('987654');
    expect(() => createSecretBox(randomBytes(32)).open(sealed)).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] = (raw[raw.length - 1] as number) ^ 1;
    expect(() => box.open(`v1.${raw.toString('base64url')}`)).toThrow();
    expect(() => box.open('v2.abc')).toThrow();
    expect(() => box.open('v1.')).toThrow();
  });

  it('parses hex and base64 keys and refuses other lengths', () => {
    const key = randomBytes(32);
    expect(parseSecretKey(key.toString('hex')).equals(key)).toBe(true);
    expect(parseSecretKey(key.toString('base64')).equals(key)).toBe(true);
    expect(() => parseSecretKey('abcd')).toThrow();
    expect(() => createSecretBox(randomBytes(16))).toThrow();
  });

  it('creates a 0600 key file in DATA_DIR once and reuses it', () => {
    const sealed = secretBoxFor({ DATA_DIR: dir }).seal('4711');
    const path = join(dir, 'secret.key');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const key = parseSecretKey(readFileSync(path, 'utf8'));
    expect(createSecretBox(key).open(sealed)).toBe('4711');
    expect(() => secretBoxFor({})).toThrow(/SECRET_KEY or DATA_DIR/);
  });
});
