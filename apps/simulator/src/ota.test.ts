/**
 * A simulated lock flashes only what its vendor signed for it: after the download (whose
 * SHA-256 the platform announced) it checks the package's signature and manifest; a tampered image,
 * another model's package, a package for another version or signed by an untrusted key is reported
 * FAILED `signature` and never becomes the pending version.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { protocol } from '@iot/contract';
import { signFirmwarePackage } from '@iot/contract/firmware-signing';
import { describe, expect, it } from 'vitest';
import { LockOta, type OtaAction } from './ota.js';
import { seededRandom } from './random.js';
import { signDemoFirmware } from './vendor.js';

const image = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) % 256));

/** Runs a whole transfer of `bytes` announced as `version` through a lock of `model`; returns its last actions. */
function transfer(bytes: Buffer, version = '2.0.0', model = 'ZG-NB100'): { actions: OtaAction[]; ota: LockOta } {
  const ota = new LockOta(seededRandom(1), {}, { model });
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  let actions = ota.handle('otaNotify', { jobId: 7, version, size: bytes.length, sha256, chunkSize: protocol.OTA_CHUNK_BYTES }, '1.0.0');
  for (let guard = 0; guard < 100; guard++) {
    const request = actions.find((action) => action.kind === 'request');
    if (request?.kind !== 'request') break;
    const { offset } = request.data;
    const data = bytes.subarray(offset, offset + protocol.OTA_CHUNK_BYTES);
    actions = ota.handle('otaChunk', { jobId: 7, offset, data: data.toString('base64'), last: offset + data.length >= bytes.length }, '1.0.0');
  }
  return { actions, ota };
}

const statusOf = (actions: OtaAction[]) => actions.flatMap((action) => (action.kind === 'status' ? [action.data] : []));

describe('a simulated lock checks the vendor signature before it flashes', () => {
  it('flashes a genuine package of its model and version', () => {
    const { actions, ota } = transfer(signDemoFirmware(image, 'ZG-NB100', '2.0.0'));
    expect(statusOf(actions).map((s) => s.state)).toEqual(['VERIFIED', 'UPDATING']);
    expect(ota.pendingVersion).toBe('2.0.0');
  });

  it('refuses a tampered image whose package hash the platform announced, and reports it', () => {
    const tampered = signDemoFirmware(image, 'ZG-NB100', '2.0.0');
    tampered[tampered.length - 100] = (tampered[tampered.length - 100] as number) ^ 0x5a;
    const { actions, ota } = transfer(tampered);
    expect(statusOf(actions)).toEqual([{ jobId: 7, state: 'FAILED', reason: 'signature', detail: expect.stringContaining('image was altered') }]);
    expect(ota.pendingVersion).toBeUndefined();
  });

  it('refuses another model\'s package, another version, an untrusted signer and an unsigned image', () => {
    const stranger = generateKeyPairSync('ed25519').privateKey;
    const cases: [Buffer, string][] = [
      [signDemoFirmware(image, 'ZG-NB200', '2.0.0'), 'model ZG-NB200'],
      [signDemoFirmware(image, 'ZG-NB100', '2.0.1'), 'version 2.0.1'],
      [signFirmwarePackage(image, { model: 'ZG-NB100', version: '2.0.0', keyId: 'zg-demo' }, stranger), 'signature does not verify'],
      [image, 'Unsigned'],
    ];
    for (const [bytes, detail] of cases) {
      const { actions, ota } = transfer(bytes);
      expect([detail, statusOf(actions)]).toEqual([detail, [{ jobId: 7, state: 'FAILED', reason: 'signature', detail: expect.stringContaining(detail) }]]);
      expect(ota.pendingVersion).toBeUndefined();
    }
  });
});
