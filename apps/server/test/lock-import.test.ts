/**
 * Bulk lock import: the template in both languages, the dry run listing every bad row (Luhn,
 * duplicate in the file, IMEI taken in another data centre without naming it, unknown type, missing
 * fields), files that are not spreadsheets (400), size limits (413), and the commit of the valid rows
 * with their secrets once, in one transaction with its system-log row; on PGlite and PostgreSQL.
 */
import { imeiWithCheckDigit } from '@iot/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashDeviceSecret } from '../src/crypto/device-secret.js';
import { auditLog, devices, deviceTypes, locks } from '../src/db/schema.js';
import { call, createTestContext, dataOf, signIn, skipSuite, type TestContext } from './helper.js';
import { secretHashOf } from '../src/gateway/test-support.js';

/** A multipart/form-data body with one file field. */
function multipart(content: Buffer | string, filename: string) {
  const boundary = `----fleet${Math.random().toString(16).slice(2)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const payload = Buffer.concat([Buffer.from(head), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function xlsxOf(rows: string[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('locks');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe.skipIf(skipSuite)('lock import', () => {
  let ctx: TestContext;
  let token: string;
  const post = (url: string, content: Buffer | string, filename: string, tenantId = 100) =>
    call(ctx.app, token, { method: 'POST', url, tenantId, ...multipart(content, filename) });
  const good = (n: number) => imeiWithCheckDigit(`86999900${String(n).padStart(6, '0')}`);

  beforeAll(async () => {
    ctx = await createTestContext({}, 10);
    token = await signIn(ctx.app);
    // Registered in data centre 101: taken for 100 too, which must not learn where.
    dataOf(await call(ctx.app, token, { method: 'POST', url: '/iot/v1/lockDevice', tenantId: 101, payload: { imei: good(9), name: 'elsewhere', model: 'ZG-NB100' } }));
  });
  afterAll(() => ctx?.close());

  it('offers the template in the caller\'s language, as .xlsx and .csv', async () => {
    const csv = await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/importTemplate?format=csv', headers: { 'accept-language': 'en-US' } });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.replace('\uFEFF', '').trim()).toBe('IMEI,Name,Device type,Building,Floor,Room,ICCID,Note,Simulated (yes/no)');
    const xlsx = await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/importTemplate' });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]?.getRow(1).values).toEqual([undefined, 'IMEI', '名称', '设备类型', '楼栋', '楼层', '房间', 'ICCID', '备注', '模拟门锁（是/否）']);
  });

  it('lists every bad row in a dry run, with row, column and reason in both languages', async () => {
    const bad = `${good(1).slice(0, 14)}${(Number(good(1)[14]) + 1) % 10}`;
    const csv = [
      'IMEI,名称,设备类型,楼栋,楼层,房间,ICCID,备注,模拟门锁（是/否）',
      `${good(1)},一号,ZG-NB100,A栋,1层,101,,,否`,
      `${bad},坏校验,ZG-NB100,,,,,,`,
      `${good(1)},重复,ZG-NB100,,,,,,`,
      `${good(9)},别的数据中心的,ZG-NB100,,,,,,`,
      `${good(2)},未知型号,ZZ-404,,,,,,`,
      `${good(3)},,ZG-NB100,,,,12345,,maybe`,
      ',,,,,,,,',
      `${good(4)},四号,ZG-NB200,B栋,2层,201,,note,是`,
    ].join('\n');
    const result = dataOf(await post('/iot/v1/lockDevice/importCheck', csv, 'locks.csv'));
    expect(result).toMatchObject({ rows: 7, valid: 2 });
    expect(result.problems.map((p: { row: number; column: string }) => [p.row, p.column])).toEqual([
      [3, 'imei'], [4, 'imei'], [5, 'imei'], [6, 'model'], [7, 'simulated'], [7, 'name'], [7, 'iccid'],
    ]);
    const reasons = result.problems.map((p: { reason: { 'en-US': string } }) => p.reason['en-US']);
    expect(reasons[0]).toContain('Luhn');
    expect(reasons[1]).toBe('repeats the IMEI of row 2');
    expect(reasons[2]).toBe('this IMEI is already registered');
    expect(JSON.stringify(result)).not.toContain('101'); // never says where
    expect(result.problems[3].reason['zh-CN']).toBe('设备类型 ZZ-404 不存在');
    // A dry run writes nothing.
    expect(await ctx.database.system.select().from(locks).where(eq(locks.imei, good(1)))).toHaveLength(0);
  });

  it('answers 400 to a file that is not a spreadsheet, or lacks the template columns', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');
    for (const [content, name] of [[png, 'locks.xlsx'], [png, 'locks.csv'], [Buffer.from('504b030400000000', 'hex'), 'broken.xlsx'], ['a,b\n1,2', 'other.csv'], ['', 'empty.csv']] as const) {
      const response = await post('/iot/v1/lockDevice/importCheck', content, name);
      expect(response.statusCode, name).toBe(400);
      expect(response.json().errors[0].field).toBe('body.file');
    }
    const json = await call(ctx.app, token, { method: 'POST', url: '/iot/v1/lockDevice/importCheck', payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    const big = await post('/iot/v1/lockDevice/importCheck', Buffer.alloc(5 * 1024 * 1024 + 10, 0x41), 'big.csv');
    expect(big.statusCode).toBe(413);
    const tooMany = ['IMEI,名称,设备类型', ...Array.from({ length: 10_001 }, (_, i) => `${good(i)},n,ZG-NB100`)].join('\n');
    const many = await post('/iot/v1/lockDevice/importCheck', tooMany, 'many.csv');
    expect(many.statusCode).toBe(400);
    expect(many.json().errors[0].message['en-US']).toContain('10000');
  });

  it('commits the 197 valid rows of a 200-row .xlsx, answering each secret once, with one system-log row', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => [good(100 + i), `导入${i}`, 'ZG-NB100', 'I栋', `${1 + (i % 5)}层`, `${100 + i}`, '', '', '否']);
    rows[10] = [good(1000).slice(0, 14) + String((Number(good(1000)[14]) + 5) % 10), 'bad luhn', 'ZG-NB100', '', '', '', '', '', ''];
    rows[20] = [good(5000), '', 'ZG-NB100', '', '', '', '', '', ''];
    rows[30] = [good(130), 'unknown', 'ZZ-1', '', '', '', '', '', ''];
    const file = await xlsxOf([['IMEI', 'Name', 'Device type', 'Building', 'Floor', 'Room', 'ICCID', 'Note', 'Simulated (yes/no)'], ...rows]);
    const check = dataOf(await post('/iot/v1/lockDevice/importCheck', file, 'locks.xlsx'));
    expect(check).toMatchObject({ rows: 200, valid: 197 });
    expect(check.problems.map((p: { row: number }) => p.row)).toEqual([12, 22, 32]);
    const committed = await post('/iot/v1/lockDevice/import', file, 'locks.xlsx');
    expect(committed.statusCode).toBe(200);
    expect(committed.headers['x-import-count']).toBe('197');
    expect(committed.headers['content-type']).toContain('text/csv');
    const lines = committed.body.replace('\uFEFF', '').trim().split('\n');
    expect(lines).toHaveLength(198);
    const [imei, name, secret] = (lines[1] as string).split(',');
    expect([imei, name]).toEqual([good(100), '导入0']);
    expect(secret?.length).toBeGreaterThanOrEqual(16);
    const stored = await ctx.database.system.select({ tenantId: locks.tenantId, room: locks.room, hash: devices.secretHash }).from(locks)
      .innerJoin(devices, eq(devices.lockId, locks.id)).where(inArray(locks.imei, rows.map((row) => row[0] as string)));
    expect(stored).toHaveLength(197);
    expect(stored.every((row) => row.tenantId === 100 && row.hash !== secret)).toBe(true);
    // Every column as one add would store it: the device type's vendor, interval and connectivity, the secret's digest.
    const [type] = await ctx.database.system.select().from(deviceTypes).where(sql`${deviceTypes.tenantId} = 100 and ${deviceTypes.model} = 'ZG-NB100'`);
    const [first] = await ctx.database.system.select().from(locks).where(eq(locks.imei, good(100)));
    expect(first).toMatchObject({
      name: '导入0', building: 'I栋', floor: '1层', room: '100', model: 'ZG-NB100', vendor: type?.vendor, firmwareVersion: '', heartbeatIntervalS: type?.heartbeatIntervalS,
      alwaysOnline: type?.connectivity === 'alwaysOnline', iccid: '', note: '', simulated: false, enabled: true,
    });
    expect(await secretHashOf(ctx.database, good(100))).toBe(hashDeviceSecret(secret as string));
    const audit = await ctx.database.system.select().from(auditLog).where(sql`${auditLog.action} = 'POST /iot/v1/lockDevice/import'`);
    expect(audit.map((row) => row.result)).toEqual(['success']);
    // Tenant 101 sees none of them; importing the same file again registers nothing (every IMEI taken).
    expect(dataOf(await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/list?building=I%E6%A0%8B', tenantId: 101 })).total).toBe(0);
    expect(dataOf(await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/list?building=I%E6%A0%8B' })).total).toBe(197);
    const again = await post('/iot/v1/lockDevice/import', file, 'locks.xlsx', 101);
    expect(again.statusCode).toBe(400);
    expect((await ctx.database.system.select().from(auditLog).where(sql`${auditLog.action} = 'POST /iot/v1/lockDevice/import'`)).length).toBeGreaterThanOrEqual(1);
  });
});
