import { DEMO_VENDOR_KEY_ID, DEMO_VENDOR_PUBLIC_KEY } from '@iot/contract/firmware-signing';
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { vendorKeysOf } from './vendor-keys.js';

const own = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

describe('firmware vendor keys from the configuration', () => {
  it('adds the demo key only with DEMO=on', () => {
    expect(vendorKeysOf({ DEMO: true }).map((key) => key.keyId)).toEqual([DEMO_VENDOR_KEY_ID]);
    expect(vendorKeysOf({ DEMO: true, FIRMWARE_VENDOR_KEYS: `zg-2026:${own}` }).map((key) => key.keyId)).toEqual(['zg-2026', DEMO_VENDOR_KEY_ID]);
    expect(vendorKeysOf({ DEMO: false, FIRMWARE_VENDOR_KEYS: `zg-2026:${own}` }).map((key) => key.keyId)).toEqual(['zg-2026']);
    expect(vendorKeysOf({ DEMO: false })).toEqual([]);
  });

  it('refuses the public demo key with DEMO=off, under any id', () => {
    expect(() => vendorKeysOf({ DEMO: false, FIRMWARE_VENDOR_KEYS: `mine:${DEMO_VENDOR_PUBLIC_KEY}` })).toThrow(/public demo key/);
  });
});
