/**
 * Firmware that cannot be forged: only vendor-signed ZGFW packages are accepted. Refused
 * with a 400 naming the field in both languages, leaving no file and no row: files that are no package
 * (HTML, zip, ELF, PE, PNG, a bare image), packages signed by another key or an unknown key id, malformed
 * or truncated packages, a tampered image, a manifest for another model or version. Versions are one
 * canonical semantic version per model: `9.333.1+build.2` duplicates `9.333.1`, `V1.4.0` is `1.4.0`.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { signFirmwarePackage } from '@iot/contract/firmware-signing';
import { signDemoFirmware } from '@iot/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firmwarePackages } from '../src/db/schema.js';
import { call, dataOf, skipSuite } from './helper.js';
import { type FirmwareEnv, image, startFirmwareEnv, upload, uploadFile } from './firmware-support.js';

const MODEL = 'ZG-NB100';
const fields = (version: string, model = MODEL) => ({ model, version });
const stranger = generateKeyPairSync('ed25519').privateKey;

describe.skipIf(skipSuite)('signed firmware packages', () => {
  let env: FirmwareEnv;
  const files = async () => (await readdir(join(env.dataDir, 'firmware'))).filter((name) => name.endsWith('.bin')).length;
  const rows = async () => (await env.ctx.database.system.select().from(firmwarePackages)).length;
  beforeAll(async () => {
    env = await startFirmwareEnv({ gateway: false });
  });
  afterAll(async () => env?.close());

  /** Uploads `bytes` as version `version`; expects a 400 on `field` whose English message contains `text`; nothing kept. */
  async function refused(bytes: Buffer, version: string, field: string, text: string, model = MODEL) {
    const before = { files: await files(), rows: await rows() };
    const response = await uploadFile(env, fields(version, model), { name: 'x.bin', bytes });
    expect([version, response.statusCode]).toEqual([version, 400]);
    const [error] = response.json().errors;
    expect(error.field).toBe(field);
    expect(error.message['en-US']).toContain(text);
    expect(error.message['zh-CN']).toMatch(/[\u4e00-\u9fff]/);
    expect({ files: await files(), rows: await rows() }).toEqual(before);
  }

  it('refuses files that are no signed package, saying what they are', async () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), image(4000)]);
    const pe = Buffer.concat([Buffer.from('MZ'), image(4000)]);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), image(4000)]);
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), image(4000)]);
    const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
    for (const [bytes, kind] of [[html, 'HTML'], [zip, 'ZIP'], [elf, 'ELF'], [pe, 'PE'], [png, 'PNG']] as const) {
      await refused(bytes, '4.0.0', 'body.file', `This is a ${kind}`);
    }
    await refused(image(5000), '4.0.1', 'body.file', 'Unsigned');
  });

  it('refuses packages signed by another key or an unknown key id', async () => {
    const forged = signFirmwarePackage(image(3000), { model: MODEL, version: '4.1.0', keyId: 'zg-demo' }, stranger);
    await refused(forged, '4.1.0', 'body.file', 'signature does not verify');
    const unknown = signFirmwarePackage(image(3000), { model: MODEL, version: '4.1.0', keyId: 'zg-2031' }, stranger);
    await refused(unknown, '4.1.0', 'body.file', 'vendor key zg-2031');
  });

  it('refuses malformed and truncated packages, and a tampered image', async () => {
    const genuine = signDemoFirmware(image(3000), MODEL, '4.2.0');
    const badFormat = Buffer.from(genuine);
    badFormat[4] = 9;
    await refused(badFormat, '4.2.0', 'body.file', 'malformed (format version 9)');
    await refused(genuine.subarray(0, 40), '4.2.0', 'body.file', 'malformed');
    const badManifest = Buffer.from(genuine);
    badManifest[13] = 0x7b; // the manifest is no longer JSON
    await refused(badManifest, '4.2.0', 'body.file', 'malformed (manifest)');
    const tampered = Buffer.from(genuine);
    tampered[tampered.length - 10] = (tampered[tampered.length - 10] as number) ^ 0xff;
    await refused(tampered, '4.2.0', 'body.file', 'SHA-256 does not match');
    await refused(Buffer.concat([genuine, Buffer.from('extra')]), '4.2.0', 'body.file', 'size does not match');
  });

  it('refuses a manifest for another model or version', async () => {
    await refused(signDemoFirmware(image(3000), 'ZG-NB200', '4.3.0'), '4.3.0', 'body.model', 'model ZG-NB200');
    await refused(signDemoFirmware(image(3000), MODEL, '4.3.1'), '4.3.0', 'body.version', 'version 4.3.1');
  });

  it('keeps one version per model by semver precedence: build metadata and a V prefix make no new version', async () => {
    expect(dataOf(await upload(env, MODEL, '9.333.1', image(1000))).version).toBe('9.333.1');
    const duplicate = await upload(env, MODEL, '9.333.1+build.2', image(1000, 2));
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().errors[0]).toMatchObject({ field: 'body.version', message: { 'en-US': expect.stringContaining('already has version V9.333.1') } });
    const prefixed = dataOf(await upload(env, MODEL, 'V1.4.0', image(1000, 3)));
    expect(prefixed.version).toBe('1.4.0');
    expect((await upload(env, MODEL, '1.4.0', image(1000, 4))).statusCode).toBe(409);
    expect((await upload(env, MODEL, 'v1.4.0+b7', image(1000, 5))).statusCode).toBe(409);
    const bad = await upload(env, MODEL, 'V1.4', image(1000, 6));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatchObject({ field: 'body.version', message: { 'en-US': 'must be a semantic version such as 2.1.0' } });
    const list = dataOf(await call(env.ctx.app, env.token, { method: 'GET', url: `/iot/v1/firmwareVersionList?model=${MODEL}&size=50` }));
    expect(list.records.map((r: { version: string }) => r.version)).toEqual(['9.333.1', '1.4.0']);
    expect(list.records[0].keyId).toBe('zg-demo');
  });
});
