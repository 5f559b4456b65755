/**
 * Editing a stay's kind, on PGlite and PostgreSQL: a booked hotel night becomes a long
 * lease through POST /iot/v1/stay/edit (the system log records kind before -> after, in words), is
 * checked in and suspended; a suspended lease cannot become another kind (409 on body.kind, zh/en)
 * but keeps its kind when it is sent again; once resumed it may. An unknown kind is a 400 on body.kind.
 * No lock answers here: the commands stay queued, which the rules do not look at.
 */
import { auditChangesText } from '@iot/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, locks } from '../src/db/schema.js';
import { call, dataOf, signIn, skipSuite } from './helper.js';
import { type OutboxEnv, startOutboxEnv } from './outbox-support.js';

const HOUR = 3600_000;
const at = (ms: number) => new Date(ms).toISOString();

describe.skipIf(skipSuite)('editing a stay\'s kind', () => {
  let env: OutboxEnv;
  let token: string;
  let room: { building: string; floor: string; room: string };
  const send = (url: string, payload: object) => call(env.ctx.app, token, { method: 'POST', url, payload });
  const post = async (url: string, payload: object) => dataOf(await send(url, payload));

  beforeAll(async () => {
    env = await startOutboxEnv();
    token = await signIn(env.ctx.app);
    const [lock] = await env.ctx.database.system.select().from(locks).where(eq(locks.id, env.devices[4]?.lockId as number));
    room = { building: lock?.building as string, floor: lock?.floor as string, room: lock?.room as string };
  });
  afterAll(async () => {
    await env?.close();
  });

  it('changes the kind, logs it, and keeps a suspended lease a long lease', async () => {
    const now = Date.now();
    const stay = await post('/iot/v1/stay/add', { room, guests: [{ name: '韩梅梅', mobile: '13900000021' }], checkInAt: at(now + 10 * 60_000), checkOutAt: at(now + 30 * 24 * HOUR) });
    expect(stay.kind).toBe('hotelNight');
    // A hotel night cannot be suspended; edited to a long lease, it can.
    expect((await send('/iot/v1/stay/suspend', { id: stay.id })).statusCode).toBe(409);
    expect(await post('/iot/v1/stay/edit', { id: stay.id, kind: 'longLease' })).toMatchObject({ kind: 'longLease', checkInAt: stay.checkInAt, guests: [{ name: '韩梅梅' }] });
    const [row] = await env.ctx.database.system.select().from(auditLog)
      .where(and(eq(auditLog.action, 'POST /iot/v1/stay/edit'), eq(auditLog.target, String(stay.id))));
    expect(row).toMatchObject({ result: 'success', changes: { kind: ['hotelNight', 'longLease'] } });
    expect(row?.targetName).toContain(`#${stay.id}`);
    expect(auditChangesText(row?.changes as never, 'zh-CN')).toEqual(['类型: 酒店住宿 → 长租']);
    expect(auditChangesText(row?.changes as never, 'en-US')).toEqual(['Kind: Hotel night → Long lease']);

    await post('/iot/v1/stay/checkIn', { id: stay.id });
    expect((await post('/iot/v1/stay/suspend', { id: stay.id })).state).toBe('SUSPENDED');
    for (const kind of ['hotelNight', 'shortRental']) {
      const refused = await send('/iot/v1/stay/edit', { id: stay.id, kind });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().errors).toEqual([{ field: 'body.kind', message: { 'zh-CN': expect.stringContaining('长租'), 'en-US': expect.stringContaining('long lease') } }]);
    }
    // Sent as it is (the edit dialog sends the whole form), the kind is no change.
    expect(await post('/iot/v1/stay/edit', { id: stay.id, kind: 'longLease', bufferAfterMinutes: 45 })).toMatchObject({ kind: 'longLease', state: 'SUSPENDED', bufferAfterMinutes: 45 });
    expect((await post('/iot/v1/stay/resume', { id: stay.id })).state).toBe('CHECKED_IN');
    expect(await post('/iot/v1/stay/edit', { id: stay.id, kind: 'shortRental' })).toMatchObject({ kind: 'shortRental', state: 'CHECKED_IN' });

    const bad = await send('/iot/v1/stay/edit', { id: stay.id, kind: 'dormitory' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { field: string }) => e.field)).toEqual(['body.kind']);
    await post('/iot/v1/stay/checkOut', { id: stay.id });
  });
});
