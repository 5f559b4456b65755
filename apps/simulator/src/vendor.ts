/**
 * The vendor's side of signed firmware for the demo and tests: the DEMO vendor key pair's
 * private half (its public half is contract DEMO_VENDOR_PUBLIC_KEY, trusted by the platform only with
 * DEMO=on) and a signer. This key is public knowledge: it signs demo and test packages, nothing real.
 * A real vendor signs with `signFirmwarePackage` from `@iot/contract/firmware-signing` and its own key.
 */
import { DEMO_VENDOR_KEY_ID, signFirmwarePackage } from '@iot/contract/firmware-signing';

/** PKCS#8 DER, base64, of the demo vendor key (Ed25519). */
const DEMO_VENDOR_PRIVATE_KEY = 'MC4CAQAwBQYDK2VwBCIEIP+2YcZVgSPPA9i5I6TF7XOgGgQmyMsgbKXuPcCxp47+';

/** A ZGFW package of `image` for `model` and `version`, signed with the demo vendor key. */
export function signDemoFirmware(image: Uint8Array, model: string, version: string): Buffer {
  return signFirmwarePackage(image, { model, version, keyId: DEMO_VENDOR_KEY_ID }, DEMO_VENDOR_PRIVATE_KEY);
}
