/**
 * The vendor public keys firmware packages must be signed with (docs/protocol.md "Signed
 * firmware packages"): FIRMWARE_VENDOR_KEYS (`keyId:base64 SPKI DER`, comma-separated), plus the demo
 * key with DEMO=on. With DEMO=off the demo key is refused (its private half is in this repository), and
 * so is any private key (contract firmware-signing). Throws a readable Error at start-up.
 */
import { DEMO_VENDOR_KEY_ID, DEMO_VENDOR_PUBLIC_KEY, demoVendorKey, parseVendorKeys, type VendorKey } from '@iot/contract/firmware-signing';

/** The keys of a configuration. */
export function vendorKeysOf(config: { FIRMWARE_VENDOR_KEYS?: string; DEMO: boolean }): VendorKey[] {
  const configured = parseVendorKeys(config.FIRMWARE_VENDOR_KEYS ?? '');
  const demo = configured.find((key) => key.keyId === DEMO_VENDOR_KEY_ID || key.publicKey.export({ type: 'spki', format: 'der' }).toString('base64') === DEMO_VENDOR_PUBLIC_KEY);
  if (!config.DEMO && demo) throw new Error(`FIRMWARE_VENDOR_KEYS: ${demo.keyId} is the public demo key; it is refused with DEMO=off`);
  return config.DEMO && !demo ? [...configured, demoVendorKey()] : configured;
}
