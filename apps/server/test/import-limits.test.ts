/**
 * On the lock import (PGlite and PostgreSQL): a sheet
 * of 200,000 rows (.xlsx or CSV) and zip-bomb workbooks are refused with a 400 on body.file whose
 * message names the limit, read in a worker thread that stops at the first limit (how fast is measured
 * in bench/hostile-io.ts, not here); a file at the limit is still read whole.
 */
import { IMPORT_MAX_ROWS } from '@iot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, signIn, skipSuite, type TestContext } from './helper.js';
import { importRows, sheetXml, workbookOf, xlsxOf } from './spreadsheet-fixtures.js';

function multipart(content: Buffer, filename: string) {
  const boundary = '----limits5b1';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return { payload: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.skipIf(skipSuite)('lock import limits', () => {
  let ctx: TestContext;
  let token: string;
  const check = (content: Buffer, filename: string) => {
    const form = multipart(content, filename);
    return call(ctx.app, token, { method: 'POST', url: '/iot/v1/lockDevice/importCheck', payload: form.payload, headers: { ...form.headers, 'accept-language': 'en-US' } });
  };
  const refusal = async (content: Buffer, filename: string) => {
    const response = await check(content, filename);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(400);
    const [error] = response.json().errors as { field: string; message: Record<string, string> }[];
    expect(error?.field).toBe('body.file');
    expect(error?.message['zh-CN']).toMatch(/[\u4e00-\u9fff]/);
    return error?.message['en-US'];
  };

  beforeAll(async () => {
    ctx = await createTestContext({}, 2);
    token = await signIn(ctx.app);
  });
  afterAll(() => ctx?.close());

  it(`refuses a 200,000-row sheet, naming the limit of ${IMPORT_MAX_ROWS} rows`, async () => {
    // One cell a row (the row limit counts rows, not their content): cheap to write.
    const xlsx = await xlsxOf([['IMEI', '名称', '设备类型'], ...Array.from({ length: 200_000 }, (_, n) => [869_000_000_000_000 + n])]);
    expect(xlsx.length).toBeLessThan(5 * 1024 * 1024); // under the upload limit: the row limit refuses it
    expect(await refusal(xlsx, 'many.xlsx')).toBe(`At most ${IMPORT_MAX_ROWS} rows per file (this one has more than ${IMPORT_MAX_ROWS})`);
    const csv = Buffer.from(['IMEI,名称,设备类型', ...Array.from({ length: 200_000 }, (_, n) => `${869_000_000_000_000 + n},,`)].join('\n'));
    expect(await refusal(csv, 'many.csv')).toContain(String(IMPORT_MAX_ROWS));
  }, 120_000);

  it('reads a sheet of exactly the limit', async () => {
    const response = await check(await xlsxOf(importRows(IMPORT_MAX_ROWS)), 'full.xlsx');
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ rows: IMPORT_MAX_ROWS, valid: IMPORT_MAX_ROWS });
  }, 120_000);

  it('refuses zip-bomb workbooks from their directory, naming the limit', async () => {
    const padding = (mib: number) => ' '.repeat(mib * 1024 * 1024);
    expect(await refusal(await workbookOf(sheetXml([['IMEI', '名称', '设备类型']], padding(20))), 'bomb.xlsx')).toMatch(/compressed more than 200 times/);
    expect(await refusal(await workbookOf(sheetXml([['IMEI', '名称', '设备类型']], padding(65))), 'bigger.xlsx')).toMatch(/at most 64 MiB/);
  }, 120_000);
});
