/**
 * Firmware packages: multipart upload streamed to DATA_DIR/firmware with its SHA-256,
 * semantic-version order per device type, refusals (bad version, unknown type, duplicate, too large,
 * no file, not multipart) that leave no file and no row, delete refused while an unfinished rollout
 * uses the package, authority checks, and the system log.
 */
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { protocol } from '@iot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, firmwarePackages } from '../src/db/schema.js';
import { call, dataOf, operatorWith, skipSuite } from './helper.js';
import { signDemoFirmware } from '@iot/simulator';
import { act, addRollout, type FirmwareEnv, image, multipart, startFirmwareEnv, upload, uploadFile } from './firmware-support.js';

describe.skipIf(skipSuite)('firmware packages', () => {
  let env: FirmwareEnv;
  const files = async () => (await readdir(join(env.dataDir, 'firmware'))).filter((name) => name.endsWith('.bin'));
  beforeAll(async () => {
    env = await startFirmwareEnv({ gateway: false });
  });
  afterAll(async () => env?.close());

  it('stores an upload with the SHA-256 computed while streaming, and logs it', async () => {
    // The file is the signed package (header, manifest, signature, image): its hash and size are the package's.
    const bytes = signDemoFirmware(image(100_000), 'ZG-NB100', '2.1.0');
    const data = dataOf(await uploadFile(env, { model: 'ZG-NB100', version: '2.1.0', notesZh: '修复', notesEn: 'Fixes' }, { name: 'ZG-NB100-2.1.0.zgfw', bytes }));
    expect(data.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(data.sizeBytes).toBe(bytes.length);
    expect(data).toMatchObject({ version: '2.1.0', keyId: 'zg-demo' });
    expect(await files()).toHaveLength(1);
    const list = dataOf(await call(env.ctx.app, env.token, { method: 'GET', url: '/iot/v1/firmwareVersionList?model=ZG-NB100' }));
    expect(list.records[0]).toMatchObject({ version: '2.1.0', sha256: data.sha256, firmwareFamily: 'ZG-NB', notes: { 'zh-CN': '修复', 'en-US': 'Fixes' } });
    const logged = await env.ctx.database.system.select().from(auditLog);
    // 系统日志 names the package uploaded (its 对象 showed "—").
    expect(logged.find((row) => row.action === 'POST /iot/v1/firmware/upload' && row.result === 'success')).toMatchObject({ target: String(data.id), targetName: 'ZG-NB100 V2.1.0' });
  });

  it('orders versions by semantic version within a device type, newest first', async () => {
    for (const version of ['1.10.0', '1.2.0', '1.9.0-rc.1', '1.9.0']) expect((await upload(env, 'ZG-NB200', version, image(10))).statusCode).toBe(200);
    const list = dataOf(await call(env.ctx.app, env.token, { method: 'GET', url: '/iot/v1/firmwareVersionList?model=ZG-NB200&size=20' }));
    expect(list.records.map((r: { version: string }) => r.version)).toEqual(['1.10.0', '1.9.0', '1.9.0-rc.1', '1.2.0']);
  });

  it('refuses bad input with the failing field and keeps neither file nor row', async () => {
    const before = { files: (await files()).length, rows: (await env.ctx.database.system.select().from(firmwarePackages)).length };
    const badVersion = await upload(env, 'ZG-NB100', 'v2', image(10));
    expect(badVersion.statusCode).toBe(400);
    expect(badVersion.json().errors[0].field).toBe('body.version');
    const unknownType = await upload(env, 'NO-SUCH', '1.0.0', image(10));
    expect(unknownType.statusCode).toBe(400);
    expect(unknownType.json().errors[0].field).toBe('body.model');
    expect((await upload(env, 'ZG-NB100', '2.1.0', image(10))).statusCode).toBe(409);
    const tooLarge = await upload(env, 'ZG-NB100', '9.0.0', Buffer.alloc(protocol.OTA_MAX_PACKAGE_BYTES)); // + header: over the limit
    expect(tooLarge.statusCode).toBe(413);
    const noFile = await multipart({ model: 'ZG-NB100', version: '9.0.1' });
    expect((await call(env.ctx.app, env.token, { method: 'POST', url: '/iot/v1/firmware/upload', ...noFile })).statusCode).toBe(400);
    const json = await call(env.ctx.app, env.token, { method: 'POST', url: '/iot/v1/firmware/upload', payload: { model: 'ZG-NB100' } });
    expect(json.statusCode).toBe(400);
    expect((await files()).length).toBe(before.files);
    expect((await env.ctx.database.system.select().from(firmwarePackages)).length).toBe(before.rows);
  });

  it('accepts a package of exactly 8 MiB', async () => {
    const max = protocol.OTA_MAX_PACKAGE_BYTES;
    const overhead = signDemoFirmware(Buffer.alloc(max - 1000), 'ZG-NB300', '3.0.0').length - (max - 1000);
    const bytes = signDemoFirmware(Buffer.alloc(max - overhead, 7), 'ZG-NB300', '3.0.0');
    expect(bytes.length).toBe(max);
    expect((await uploadFile(env, { model: 'ZG-NB300', version: '3.0.0' }, { name: 'max.zgfw', bytes })).statusCode).toBe(200);
  });

  it('refuses to delete a package an unfinished rollout uses; deletes it and its file afterwards', async () => {
    const { id } = dataOf(await upload(env, 'ZG-NB100', '2.2.0', image(5000)));
    const rollout = await addRollout(env, { packageId: id, target: { kind: 'type' } });
    const refused = await call(env.ctx.app, env.token, { method: 'POST', url: '/iot/v1/firmware/delete', payload: { id } });
    expect(refused.statusCode).toBe(409);
    expect((await act(env, 'cancel', rollout)).statusCode).toBe(200);
    const count = (await files()).length;
    expect((await call(env.ctx.app, env.token, { method: 'POST', url: '/iot/v1/firmware/delete', payload: { id } })).statusCode).toBe(200);
    expect((await files()).length).toBe(count - 1);
  });

  it('needs FIRMWARE_PACKAGE_EDIT to upload; FIRMWARE_RULE reads', async () => {
    const { token: reader } = await operatorWith(env.ctx.app, env.token, 'fw-reader', ['FIRMWARE_RULE']);
    expect((await call(env.ctx.app, reader, { method: 'GET', url: '/iot/v1/firmwareVersionList' })).statusCode).toBe(200);
    expect((await upload(env, 'ZG-NB100', '7.0.0', image(10), reader)).statusCode).toBe(403);
  });
});
