/**
 * Default stay buffers per data centre (docs/stays.md "Buffers"), on PGlite and PostgreSQL:
 * 30 and 30 minutes at first, changed with TENANT_SETTINGS only (a partial update, the system log with
 * before -> after), out-of-range values refused in both languages, a stay booked without buffers taking
 * the new defaults (an imported row too) and one with its own keeping them, and another data centre
 * keeping its own.
 */
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locks } from '../src/db/schema.js';
import { call, createTestContext, dataOf, operatorWith, signIn, skipSuite, type TestContext } from './helper.js';
import { TEST_SECRET_KEY } from './outbox-support.js';

const HOUR = 3600_000;
const SETTINGS = '/iot/v1/tenant/settings';
const at = (ms: number) => new Date(ms).toISOString();
const HEADER = ['楼栋', '楼层', '房间', 'kind', '入住时间', '退房时间', 'reference', '住客姓名', '手机号'];
function csvUpload(rows: string[][]) {
  const boundary = '----staybuffers5d';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bookings.csv"\r\nContent-Type: text/csv\r\n\r\n`;
  const body = rows.map((row) => row.join(',')).join('\n');
  return { payload: Buffer.from(`${head}${body}\r\n--${boundary}--\r\n`), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const fieldOf = (response: LightMyRequestResponse, field: string) =>
  (response.json().errors as { field: string; message: Record<string, string> }[] | undefined)?.find((e) => e.field === field);

describe.skipIf(skipSuite)('default stay buffers per data centre', () => {
  let ctx: TestContext;
  let admin: string;
  let room: { building: string; floor: string; room: string };
  const stamp = Date.now().toString(36);
  const post = (url: string, payload: object, options: { token?: string; language?: string } = {}) =>
    call(ctx.app, options.token ?? admin, { method: 'POST', url, payload, headers: options.language ? { 'accept-language': options.language } : undefined });
  const get = (url: string, tenantId?: number) => call(ctx.app, admin, { method: 'GET', url, tenantId });
  const book = (from: number, extra: object = {}) => post('/iot/v1/stay/add', {
    room, guests: [{ name: '韩梅梅', mobile: '13900000002' }], checkInAt: at(from), checkOutAt: at(from + 20 * HOUR), ...extra,
  });

  beforeAll(async () => {
    ctx = await createTestContext({ SECRET_KEY: TEST_SECRET_KEY }, 2);
    admin = await signIn(ctx.app);
    const [lock] = await ctx.database.system.select().from(locks).where(eq(locks.tenantId, 100)).orderBy(locks.id);
    room = { building: lock?.building as string, floor: lock?.floor as string, room: lock?.room as string };
  });
  afterAll(async () => {
    // Data centre 100 goes back to the column defaults, as errors-and-time-zone.test.ts does for its zone.
    if (ctx) await post(SETTINGS, { stayBufferBeforeMinutes: 30, stayBufferAfterMinutes: 30 });
    await ctx?.close();
  });

  it('starts at 30 and 30 minutes in every data centre', async () => {
    for (const tenantId of [100, 101]) {
      expect(dataOf(await get(SETTINGS, tenantId))).toMatchObject({ tenantId, stayBufferBeforeMinutes: 30, stayBufferAfterMinutes: 30 });
    }
  });

  it('is changed with TENANT_SETTINGS only, the rest kept, logged before and after', async () => {
    const reader = await operatorWith(ctx.app, admin, `buffer-reader-${stamp}`, ['LOGIN_ACCOUNT']);
    const refused = await post(SETTINGS, { stayBufferBeforeMinutes: 45 }, { token: reader.token });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'FORBIDDEN']);
    const keeper = await operatorWith(ctx.app, admin, `buffer-keeper-${stamp}`, ['TENANT_SETTINGS']);
    const saved = dataOf(await post(SETTINGS, { stayBufferBeforeMinutes: 45, stayBufferAfterMinutes: 10 }, { token: keeper.token }));
    expect(saved).toMatchObject({ tenantId: 100, timeZone: 'Asia/Shanghai', stayBufferBeforeMinutes: 45, stayBufferAfterMinutes: 10 });
    // The time zone alone, as before: the buffers stay.
    expect(dataOf(await post(SETTINGS, { timeZone: 'Asia/Shanghai' }))).toMatchObject({ stayBufferBeforeMinutes: 45, stayBufferAfterMinutes: 10 });
    const rows = dataOf(await get('/iot/v1/SysOperateLog/getLogList?action=POST%20%2Fiot%2Fv1%2Ftenant%2Fsettings')).records as
      { username: string; result: string; changes: Record<string, unknown> | null }[];
    const row = rows.find((r) => r.username === `buffer-keeper-${stamp}` && r.result === 'success');
    expect(row?.changes).toEqual({ stayBufferBeforeMinutes: [30, 45], stayBufferAfterMinutes: [30, 10] });
    expect(rows.some((r) => r.username === `buffer-reader-${stamp}` && r.result === 'FORBIDDEN')).toBe(true);
  });

  it('refuses buffers outside 0..1440 whole minutes, naming the field in Chinese and English', async () => {
    for (const value of [-1, 1441, 2.5]) {
      const bad = await post(SETTINGS, { stayBufferBeforeMinutes: value }, { language: 'en-US' });
      expect([bad.statusCode, bad.json().code]).toEqual([400, 'VALIDATION_FAILED']);
      const message = fieldOf(bad, 'body.stayBufferBeforeMinutes')?.message;
      expect(message?.['zh-CN']).toMatch(/\S/);
      expect(message?.['en-US']).toMatch(/\S/);
      expect(bad.json().message).toBe(message?.['en-US']);
    }
    expect(fieldOf(await post(SETTINGS, { stayBufferAfterMinutes: 1441 }), 'body.stayBufferAfterMinutes')).toBeDefined();
    expect(dataOf(await get(SETTINGS))).toMatchObject({ stayBufferBeforeMinutes: 45, stayBufferAfterMinutes: 10 });
  });

  it("gives a stay booked without buffers the data centre's defaults; one with its own keeps them", async () => {
    const start = Date.now() + 3 * HOUR;
    const plain = dataOf(await book(start));
    expect([plain.bufferBeforeMinutes, plain.bufferAfterMinutes]).toEqual([45, 10]);
    const own = dataOf(await book(start + 2 * 24 * HOUR, { bufferBeforeMinutes: 0, bufferAfterMinutes: 120 }));
    expect([own.bufferBeforeMinutes, own.bufferAfterMinutes]).toEqual([0, 120]);
    // A later change of the defaults leaves booked stays as they are.
    dataOf(await post(SETTINGS, { stayBufferBeforeMinutes: 60 }));
    const again = dataOf(await get(`/iot/v1/stay/detail?id=${plain.id}`));
    expect([again.bufferBeforeMinutes, again.bufferAfterMinutes]).toEqual([45, 10]);
  });

  it("gives an imported row without buffers the data centre's defaults", async () => {
    const start = Date.now() + 200 * HOUR;
    const row = [room.building, room.floor, room.room, 'hotelNight', at(start), at(start + 20 * HOUR), `B-${stamp}`, '李雷', '13900000003'];
    const done = dataOf(await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/stay/import', ...csvUpload([HEADER, row]) }));
    const stay = dataOf(await get(`/iot/v1/stay/detail?id=${(done.ids as number[])[0]}`));
    expect([stay.bufferBeforeMinutes, stay.bufferAfterMinutes]).toEqual([60, 10]);
  });

  it('leaves another data centre its own defaults', async () => {
    expect(dataOf(await get(SETTINGS, 101))).toMatchObject({ tenantId: 101, stayBufferBeforeMinutes: 30, stayBufferAfterMinutes: 30 });
    expect(dataOf(await get(SETTINGS, 100))).toMatchObject({ tenantId: 100, stayBufferBeforeMinutes: 60, stayBufferAfterMinutes: 10 });
  });
});
