/**
 * The booking import (docs/stays.md "Import"), on PGlite and PostgreSQL: the template, the
 * dry run's row problems in both languages (bad room, overlap inside the file and with a booked stay,
 * bad times, bad mobile) writing nothing, a refused commit writing nothing, a clean commit booking every
 * stay in one transaction with its doors queued and its system-log row, a repeated file refused by its
 * references, another data centre seeing none of it; CSV and .xlsx alike; the row limit.
 */
import { STAY_IMPORT_MAX_ROWS } from '@iot/contract';
import ExcelJS from 'exceljs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, locks, stayDoors, stays } from '../src/db/schema.js';
import { call, createTestContext, dataOf, signIn, skipSuite, type TestContext } from './helper.js';
import { TEST_SECRET_KEY } from './outbox-support.js';
import { xlsxOf } from './spreadsheet-fixtures.js';

const HOUR = 3600_000;
const at = (ms: number) => new Date(ms).toISOString();
const HEADER = ['楼栋', '楼层', '房间', 'kind', '入住时间', '退房时间', 'reference', '住客姓名', '手机号'];

function multipart(content: Buffer | string, filename: string) {
  const boundary = '----stayimport7c';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return { payload: Buffer.concat([Buffer.from(head), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const csvOf = (rows: string[][]) => rows.map((row) => row.join(',')).join('\n');

describe.skipIf(skipSuite)('stay import', () => {
  let ctx: TestContext;
  let token: string;
  const rooms: { building: string; floor: string; room: string; locks: number }[] = [];
  const post = (url: string, content: Buffer | string, filename: string, tenantId = 100) =>
    call(ctx.app, token, { method: 'POST', url, tenantId, ...multipart(content, filename) });
  const stayCount = async () => (await ctx.database.system.select({ n: sql<number>`count(*)::int` }).from(stays))[0]?.n;
  const row = (room: number, from: number, to: number, reference: string, name: string, mobile: string) => {
    const place = rooms[room] as { building: string; floor: string; room: string };
    return [place.building, place.floor, place.room, 'hotelNight', at(from), at(to), reference, name, mobile];
  };

  beforeAll(async () => {
    ctx = await createTestContext({ SECRET_KEY: TEST_SECRET_KEY }, 4);
    token = await signIn(ctx.app);
    const all = await ctx.database.system.select().from(locks).where(eq(locks.tenantId, 100)).orderBy(locks.id);
    for (const lock of all) {
      const found = rooms.find((r) => r.building === lock.building && r.floor === lock.floor && r.room === lock.room);
      if (found) found.locks++;
      else if (lock.room) rooms.push({ building: lock.building, floor: lock.floor, room: lock.room, locks: 1 });
    }
    expect(rooms.length).toBeGreaterThanOrEqual(2);
  });
  afterAll(() => ctx?.close());

  it('offers the template in the caller\'s language, as .xlsx and .csv', async () => {
    const csv = await call(ctx.app, token, { method: 'GET', url: '/iot/v1/stay/importTemplate?format=csv', headers: { 'accept-language': 'en-US' } });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.replace('\uFEFF', '').trim()).toBe('Building,Floor,Room,Kind (hotelNight/shortRental/longLease),Check-in,Check-out,Buffer before (minutes),Buffer after (minutes),Reference,Guest name,Mobile,ID card number');
    const xlsx = await call(ctx.app, token, { method: 'GET', url: '/iot/v1/stay/importTemplate' });
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]?.getRow(1).values).toEqual([undefined, '楼栋', '楼层', '房间', '类型（酒店/短租/长租）', '入住时间', '退房时间', '提前开门（分钟）', '延后关门（分钟）', '预订单号', '住客姓名', '手机号', '身份证号']);
  });

  it('lists every bad row in a dry run, in both languages, writing nothing; the commit of that file writes nothing', async () => {
    const start = Date.now() + 48 * HOUR;
    dataOf(await call(ctx.app, token, { method: 'POST', url: '/iot/v1/stay/add', payload: { room: { building: rooms[1]?.building, floor: rooms[1]?.floor, room: rooms[1]?.room }, guests: [{ name: '已订', mobile: '13900000009' }], checkInAt: at(start), checkOutAt: at(start + 24 * HOUR) } }));
    const before = await stayCount();
    const nowhere = ['无此楼', '1层', '999', '', at(start), at(start + HOUR), 'D-2', '甲', '13900000001'];
    const file = csvOf([HEADER,
      row(0, start, start + 24 * HOUR, 'D-1', '张三', '13900000001'), row(0, start, start + 24 * HOUR, 'D-1', '李四', '13900000002'), // one stay, two guests
      nowhere, row(0, start + HOUR, start + 2 * HOUR, 'D-3', '乙', '13900000003'), // overlaps row 2 in the file
      row(1, start + HOUR, start + 2 * HOUR, 'D-4', '丙', '13900000004'), // overlaps the booked stay
      row(0, start + 30 * HOUR, start + 29 * HOUR, 'D-5', '丁', '13900000005'), // check-out before check-in
      row(0, start + 40 * HOUR, start + 41 * HOUR, 'D-6', '戊', '12345'), // bad mobile
      row(0, start + 50 * HOUR, start + 51 * HOUR, 'D-7', '己', '13900000007').map((cell, i) => (i === 4 ? 'tomorrow' : cell)),
    ]);
    const check = dataOf(await post('/iot/v1/stay/importCheck', file, 'bookings.csv'));
    expect(check).toMatchObject({ rows: 8, valid: 2, invalid: 6, stays: 0 });
    const byRow = new Map(check.results.map((r: { row: number; errors: { column: string; reason: Record<string, string> }[] }) => [r.row, r.errors]));
    expect(check.results.slice(0, 2).map((r: { ok: boolean }) => r.ok)).toEqual([true, true]);
    expect(byRow.get(4)).toEqual([{ column: 'room', reason: { 'zh-CN': '该房间没有门锁', 'en-US': 'This room has no lock' } }]);
    expect(byRow.get(5)).toEqual([{ column: 'checkInAt', reason: { 'zh-CN': '与第 2 行的入住时段重叠（同一房间）', 'en-US': 'overlaps the stay of row 2 (same room)' } }]);
    expect(byRow.get(6)).toMatchObject([{ column: 'checkInAt', reason: { 'zh-CN': expect.stringContaining('该房间在此时段已有入住'), 'en-US': expect.stringContaining('The room already has a stay') } }]);
    expect(byRow.get(7)).toEqual([{ column: 'checkOutAt', reason: { 'zh-CN': '退房时间须晚于入住时间', 'en-US': 'Check-out must be after check-in' } }]);
    expect(byRow.get(8)).toEqual([{ column: 'guestMobile', reason: { 'zh-CN': '请输入 11 位手机号', 'en-US': 'Enter an 11-digit mobile number' } }]);
    expect(byRow.get(9)).toMatchObject([{ column: 'checkInAt', reason: { 'en-US': expect.stringContaining('2026-01-31 14:00') } }]);
    expect(await stayCount()).toBe(before);
    const refused = await post('/iot/v1/stay/import', file, 'bookings.csv');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.map((e: { field: string }) => e.field)).toEqual(['body.file.4.room', 'body.file.5.checkInAt', 'body.file.6.checkInAt', 'body.file.7.checkOutAt', 'body.file.8.guestMobile', 'body.file.9.checkInAt']);
    expect(await stayCount()).toBe(before);
  });

  it('books every stay of a clean .xlsx in one go, doors queued and one system-log row; a repeated file books nothing', async () => {
    const soon = Date.now() + 30 * 60_000;
    const file = await xlsxOf([HEADER, row(0, soon, soon + 24 * HOUR, 'X-1', '王五', '13900000011'), row(0, soon, soon + 24 * HOUR, 'X-1', '赵六', '13900000012'),
      row(1, soon + 100 * HOUR, soon + 124 * HOUR, 'X-2', '钱七', '13900000013')]);
    expect(dataOf(await post('/iot/v1/stay/importCheck', file, 'clean.xlsx'))).toMatchObject({ rows: 3, valid: 3, invalid: 0, stays: 2 });
    const done = dataOf(await post('/iot/v1/stay/import', file, 'clean.xlsx'));
    expect(done).toMatchObject({ stays: 2, guests: 3 });
    const [first, second] = done.ids as number[];
    const stay = dataOf(await call(ctx.app, token, { method: 'GET', url: `/iot/v1/stay/detail?id=${first}` }));
    expect(stay).toMatchObject({ reference: 'X-1', state: 'BOOKED', readiness: 'queued' });
    expect(stay.guests.map((g: { name: string }) => g.name)).toEqual(['王五', '赵六']);
    // Issued at once (inside the lead time), as a single booking would be: every guest on every lock of the room.
    expect(await ctx.database.system.select().from(stayDoors).where(eq(stayDoors.stayId, first as number))).toHaveLength(2 * (rooms[0]?.locks as number));
    expect(dataOf(await call(ctx.app, token, { method: 'GET', url: `/iot/v1/stay/detail?id=${second}` }))).toMatchObject({ reference: 'X-2', readiness: 'pending' });
    const audit = await ctx.database.system.select().from(auditLog).where(and(eq(auditLog.action, 'POST /iot/v1/stay/import'), eq(auditLog.result, 'success')));
    expect(audit).toHaveLength(1);
    // A PMS retry of the same file: every stay's reference is taken, so 400 and nothing booked twice.
    const before = await stayCount();
    const again = await post('/iot/v1/stay/import', file, 'clean.xlsx');
    expect(again.statusCode).toBe(400);
    expect(again.json().errors[0]).toMatchObject({ field: 'body.file.2.reference', message: { 'en-US': `This reference is already booked (#${first})` } });
    expect(await stayCount()).toBe(before);
  });

  it('keeps data centres apart: another one sees no room, no reference and no stay of this one', async () => {
    const later = Date.now() + 300 * HOUR;
    const file = csvOf([HEADER, row(0, later, later + HOUR, 'X-1', '孙八', '13900000021')]);
    const check = dataOf(await post('/iot/v1/stay/importCheck', file, 'other.csv', 101));
    expect(check.results[0].errors).toEqual([{ column: 'room', reason: { 'zh-CN': '该房间没有门锁', 'en-US': 'This room has no lock' } }]);
    expect((await post('/iot/v1/stay/import', file, 'other.csv', 101)).statusCode).toBe(400);
    expect(dataOf(await call(ctx.app, token, { method: 'GET', url: '/iot/v1/stay/list', tenantId: 101 })).total).toBe(0);
  });

  it(`checks a file of ${STAY_IMPORT_MAX_ROWS} rows and refuses one more, naming the limit`, async () => {
    const first = Date.now() + 1000 * HOUR;
    const lines = Array.from({ length: STAY_IMPORT_MAX_ROWS }, (_, n) => row(0, first + n * 2 * HOUR, first + (n * 2 + 1) * HOUR, `L-${n}`, '周', '13900000031'));
    const full = dataOf(await post('/iot/v1/stay/importCheck', csvOf([HEADER, ...lines]), 'full.csv'));
    expect(full).toMatchObject({ rows: STAY_IMPORT_MAX_ROWS, valid: STAY_IMPORT_MAX_ROWS, invalid: 0, stays: STAY_IMPORT_MAX_ROWS });
    const over = await post('/iot/v1/stay/importCheck', csvOf([HEADER, ...lines, row(0, first - 4 * HOUR, first - 3 * HOUR, 'L-x', '周', '13900000031')]), 'over.csv');
    expect(over.statusCode).toBe(400);
    expect(over.json().errors[0]).toMatchObject({ field: 'body.file', message: { 'en-US': expect.stringContaining(String(STAY_IMPORT_MAX_ROWS)) } });
  }, 60_000);

  it('answers 400 on body.file, never 500, to what is no booking sheet', async () => {
    for (const [content, name] of [['not,a,sheet\n1,2,3', 'x.csv'], [Buffer.from([0x50, 0x4b, 3, 4, 0, 0]), 'x.xlsx'], [csvOf([HEADER]), 'empty.csv']] as const) {
      const response = await post('/iot/v1/stay/importCheck', content, name);
      expect(response.statusCode, name).toBe(400);
      expect(response.json().errors[0].field).toBe('body.file');
    }
  });
});
