/**
 * Hostile multipart bodies on both upload routes (firmware packages and the lock import): a boundary
 * that is missing or does not match the body, a body cut off inside the file part, a form without its
 * file part, a part header that never ends, and a file over the route's limit. Each is a 4xx naming the
 * field in both languages (400 VALIDATION_FAILED, or 413 for the oversize file), never a 500, and
 * leaves no package file and no row behind.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { IMPORT_MAX_BYTES, protocol } from '@iot/contract';
import { signDemoFirmware } from '@iot/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firmwarePackages, locks } from '../src/db/schema.js';
import { call, skipSuite } from './helper.js';
import { type FirmwareEnv, image, startFirmwareEnv } from './firmware-support.js';

const BOUNDARY = '----hostile7d1f';
const CRLF = '\r\n';
const fieldPart = (name: string, value: string) => `--${BOUNDARY}${CRLF}Content-Disposition: form-data; name="${name}"${CRLF}${CRLF}${value}${CRLF}`;
const fileHead = (name: string) => `--${BOUNDARY}${CRLF}Content-Disposition: form-data; name="file"; filename="${name}"${CRLF}Content-Type: application/octet-stream${CRLF}${CRLF}`;
const FIELDS = fieldPart('model', 'ZG-NB100') + fieldPart('version', '4.0.0');

/** A complete form: the firmware fields, then a file part of `bytes`. */
const wholeForm = (bytes: Buffer) => Buffer.concat([Buffer.from(FIELDS + fileHead('fw.bin')), bytes, Buffer.from(`${CRLF}--${BOUNDARY}--${CRLF}`)]);

/** Bodies every upload route must refuse, with the content type each is sent under. */
const HOSTILE: { name: string; contentType: string; payload: Buffer }[] = [
  { name: 'no boundary in the content type', contentType: 'multipart/form-data', payload: wholeForm(image(1000)) },
  { name: 'a boundary the body does not use', contentType: 'multipart/form-data; boundary=other', payload: wholeForm(image(1000)) },
  { name: 'an empty boundary', contentType: 'multipart/form-data; boundary=', payload: wholeForm(image(1000)) },
  { name: 'a body cut off inside the file', contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: wholeForm(image(4000)).subarray(0, FIELDS.length + 2000) },
  { name: 'a body cut off inside a part header', contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: Buffer.from(`${FIELDS}--${BOUNDARY}${CRLF}Content-Disposition: form-da`) },
  { name: 'no file part', contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: Buffer.from(`${FIELDS}--${BOUNDARY}--${CRLF}`) },
  { name: 'an empty body', contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: Buffer.alloc(0) },
  { name: 'garbage', contentType: `multipart/form-data; boundary=${BOUNDARY}`, payload: Buffer.from('\u0000\u00ff not a form at all \r\n\r\n--') },
];

describe.skipIf(skipSuite)('hostile multipart bodies', () => {
  let env: FirmwareEnv;
  const packageFiles = async () => (await readdir(join(env.dataDir, 'firmware')).catch(() => [])).filter((name) => !name.startsWith('.'));
  const post = (url: string, contentType: string, payload: Buffer) =>
    call(env.ctx.app, env.token, { method: 'POST', url, payload, headers: { 'content-type': contentType } });
  beforeAll(async () => {
    env = await startFirmwareEnv({ gateway: false, simLocks: 2 });
  });
  afterAll(async () => env?.close());

  /** `status` with errors naming body.file (a form with nothing readable may name its other fields too), each in both languages. */
  const expectFieldError = (response: { statusCode: number; json(): unknown }, status = 400) => {
    expect(response.statusCode).toBe(status);
    const { errors } = response.json() as { errors: { field: string; message: Record<string, string> }[] };
    expect(errors.map((error) => error.field)).toContain('body.file');
    for (const error of errors) {
      expect(error.message['zh-CN']).toMatch(/[\u4e00-\u9fff]/);
      expect(error.message['en-US']).toMatch(/[a-z]/);
    }
  };

  for (const url of ['/iot/v1/firmware/upload', '/iot/v1/lockDevice/importCheck', '/iot/v1/lockDevice/import']) {
    for (const body of HOSTILE) {
      it(`${url}: ${body.name} is a 400 on body.file`, async () => {
        const rows = { packages: (await env.ctx.database.system.select().from(firmwarePackages)).length, locks: (await env.ctx.database.system.select().from(locks)).length };
        const response = await post(url, body.contentType, body.payload);
        expectFieldError(response);
        expect(await packageFiles()).toEqual([]);
        expect((await env.ctx.database.system.select().from(firmwarePackages)).length).toBe(rows.packages);
        expect((await env.ctx.database.system.select().from(locks)).length).toBe(rows.locks);
      });
    }
  }

  it('a package over the limit is a 413 on body.file, and nothing of it stays', async () => {
    // A genuine signed package, one past the limit: what is not a package at all is refused as such first.
    const oversize = signDemoFirmware(Buffer.alloc(protocol.OTA_MAX_PACKAGE_BYTES), 'ZG-NB100', '4.0.0');
    const response = await post('/iot/v1/firmware/upload', `multipart/form-data; boundary=${BOUNDARY}`, wholeForm(oversize));
    expectFieldError(response, 413);
    expect(await packageFiles()).toEqual([]);
  });

  it('an import file over the limit is a 413 on body.file', async () => {
    const response = await post('/iot/v1/lockDevice/importCheck', `multipart/form-data; boundary=${BOUNDARY}`, wholeForm(Buffer.alloc(IMPORT_MAX_BYTES + 1, 65)));
    expectFieldError(response, 413);
  });
});
