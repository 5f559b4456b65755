/**
 * For uploads: on every multipart endpoint of the contract
 * (its `upload` form), a control character in the file's name (raw in the part header, or encoded as
 * RFC 5987 filename*) or in any text field, a field name with one, an unknown field, and a name longer
 * than 255 characters are each a 400 naming the field in both languages, never a 500, and leave no
 * row and no package file behind; on PGlite and PostgreSQL.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { apiEndpoints } from '@iot/contract';
import { signDemoFirmware } from '@iot/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { firmwarePackages } from '../src/db/schema.js';
import { type FirmwareEnv, image, startFirmwareEnv } from './firmware-support.js';
import { call, skipSuite, tableChecksum } from './helper.js';

const BOUNDARY = '----textrules9c2e';
const CRLF = '\r\n';
/** Control characters: C0 (NUL, SOH, ESC, line breaks), DEL and C1 (NEL). */
const CONTROLS = ['\u0000', '\u0001', '\u001b', '\n', '\r', '\t', '\u007f', '\u0085'];
/** Values a well-meaning client sends, by field name. */
const PLAUSIBLE: Record<string, string> = { model: 'ZG-NB100', version: '9.0.1', notesZh: '修复', notesEn: 'Fixes' };

const UPLOADS = apiEndpoints.filter((endpoint) => endpoint.upload);
const fieldsOf = (schema: z.ZodType) => Object.keys((z.toJSONSchema(schema, { io: 'input' }) as { properties?: object }).properties ?? {});

/** A form: text fields, then the file part (name in the header as given, or as filename* when `encoded`). */
function form(fields: Record<string, string>, fileName: string, encoded = false, content = 'IMEI,名称,设备类型\n') {
  const parts = Object.entries(fields).map(([name, value]) => `--${BOUNDARY}${CRLF}Content-Disposition: form-data; name="${name}"${CRLF}${CRLF}${value}${CRLF}`);
  const disposition = encoded ? `filename*=UTF-8''${encodeURIComponent(fileName)}` : `filename="${fileName}"`;
  const head = `--${BOUNDARY}${CRLF}Content-Disposition: form-data; name="file"; ${disposition}${CRLF}Content-Type: application/octet-stream${CRLF}${CRLF}`;
  // A genuine signed package, so the only fault is the one under test: an unsigned file is refused first.
  const bytes = content === 'firmware' ? signDemoFirmware(image(2048), PLAUSIBLE.model as string, PLAUSIBLE.version as string) : Buffer.from(content);
  return Buffer.concat([Buffer.from(parts.join('') + head, 'utf8'), bytes, Buffer.from(`${CRLF}--${BOUNDARY}--${CRLF}`)]);
}

describe.skipIf(skipSuite)('text rules of every upload', () => {
  let env: FirmwareEnv;
  beforeAll(async () => {
    env = await startFirmwareEnv({ gateway: false, simLocks: 2 });
  });
  afterAll(async () => env?.close());

  const post = (url: string, payload: Buffer) => call(env.ctx.app, env.token, { method: 'POST', url, payload, headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } });
  /** What an upload may have left: rows of the tables uploads write, and stored package files. */
  const leftovers = async () => [
    await tableChecksum(env.ctx.database, ['locks', 'firmware_packages']),
    (await readdir(join(env.dataDir, 'firmware')).catch(() => [])).filter((name) => !name.startsWith('.')).length,
  ];
  const expect400 = async (url: string, payload: Buffer, field: string) => {
    const response = await post(url, payload);
    const errors = response.statusCode === 400 ? (response.json().errors as { field: string; message: Record<string, string> }[]) : [];
    const named = errors.find((error) => error.field === field);
    expect([url, field, response.statusCode, named !== undefined], response.body).toEqual([url, field, 400, true]);
    expect(named?.message['zh-CN']).toMatch(/[\u4e00-\u9fff]/);
    expect(named?.message['en-US']).toMatch(/[a-z]/);
  };

  it('knows the multipart endpoints from the contract', () => {
    expect(UPLOADS.map((endpoint) => endpoint.path).sort()).toEqual([
      '/iot/v1/firmware/upload', '/iot/v1/holidayCalendar/import', '/iot/v1/lockDevice/import', '/iot/v1/lockDevice/importCheck',
      '/iot/v1/stay/import', '/iot/v1/stay/importCheck', '/iot/v1/workOrder/photo/add',
    ]);
    expect(UPLOADS.every((endpoint) => endpoint.kind === 'multipart')).toBe(true);
  });

  it.each(UPLOADS.map((endpoint) => [endpoint.path, endpoint] as const))('%s: a control character in the file name is a 400 on body.file', async (url, endpoint) => {
    const before = await leftovers();
    const fields = Object.fromEntries(fieldsOf(endpoint.upload?.fields as z.ZodType).map((name) => [name, PLAUSIBLE[name] ?? 'x']));
    const content = url.includes('firmware') ? 'firmware' : undefined;
    for (const control of CONTROLS) {
      await expect400(url, form(fields, `locks${control}.csv`, true, content), 'body.file');
      if (!'\r\n'.includes(control)) await expect400(url, form(fields, `locks${control}.csv`, false, content), 'body.file');
    }
    await expect400(url, form(fields, `${'长'.repeat(256)}.csv`, true, content), 'body.file');
    expect(await leftovers()).toEqual(before);
  });

  it.each(UPLOADS.map((endpoint) => [endpoint.path, endpoint] as const))('%s: a control character in a field, its name, or an unknown field is a 400 naming it', async (url, endpoint) => {
    const before = await leftovers();
    const names = fieldsOf(endpoint.upload?.fields as z.ZodType);
    const fields = Object.fromEntries(names.map((name) => [name, PLAUSIBLE[name] ?? 'x']));
    const content = url.includes('firmware') ? 'firmware' : undefined;
    for (const name of names) {
      for (const control of CONTROLS.filter((c) => !'\t\n\r'.includes(c))) await expect400(url, form({ ...fields, [name]: `a${control}b` }, 'ok.csv', false, content), `body.${name}`);
    }
    await expect400(url, form({ ...fields, extra: 'x' }, 'ok.csv', false, content), 'body');
    await expect400(url, form({ ...fields, 'ex\u0001tra': 'x' }, 'ok.csv', false, content), 'body');
    expect(await leftovers()).toEqual(before);
  });

  it('still takes a well-formed upload with a Chinese file name', async () => {
    const response = await post('/iot/v1/lockDevice/importCheck', form({}, '门锁 导入（第1批）.csv', true, 'IMEI,名称,设备类型\n861234500000001,一号,ZG-NB100\n'));
    expect(response.statusCode).toBe(200);
    expect(response.json().data.rows).toBe(1);
    expect(await env.ctx.database.system.select().from(firmwarePackages)).toHaveLength(0);
  });
});
