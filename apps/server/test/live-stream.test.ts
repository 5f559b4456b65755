/**
 * The live stream (modules/live/) over real HTTP on both databases: scoped to the data
 * centre and to the pages the caller may open, tickets single-use and short-lived, resumable with
 * Last-Event-ID (or `reset`), closed when the sign-in is revoked or the app closes, never compressed.
 * Events are emitted on the real bus (events/emit.ts) as their owners do.
 */
import type { DomainEvent } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emit, emitAll } from '../src/events/emit.js';
import { call, createTestContext, dataOf, operatorWith, signIn, skipSuite, type TestContext } from './helper.js';
import { type LiveClient, openLive } from './sse-client.js';

const alarm = (lockId: number, tenantId = 100): DomainEvent => ({ name: 'lock.alarm', payload: { tenantId, lockId, alertId: lockId, kind: 'tamper', cleared: false } });
const order = (orderId: number, tenantId = 100): DomainEvent => ({ name: 'order.state', payload: { tenantId, orderId, tradeState: 'SUCCESS' } });

describe.skipIf(skipSuite)('live stream', () => {
  let ctx: TestContext;
  let base: string;
  let admin: string;
  let watcher: { id: number; roleId: number; token: string };
  const open: LiveClient[] = [];
  const live = async (...args: Parameters<typeof openLive>) => {
    const client = await openLive(...args);
    open.push(client);
    return client;
  };
  /** Emits `events` in one committed transaction, as an owning module does. */
  const raise = (...events: DomainEvent[]) => ctx.database.transaction((tx) => emitAll(tx, events));
  const ticketFor = async (token: string, tenantId = 100) => dataOf(await call(ctx.app, token, { method: 'POST', url: '/iot/v1/events/ticket', tenantId }));

  beforeAll(async () => {
    ctx = await createTestContext({}, 2);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const address = ctx.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    admin = await signIn(ctx.app);
    watcher = await operatorWith(ctx.app, admin, 'alarm-watcher', ['LOCK_ALERT_LOG']);
  });
  afterAll(async () => {
    for (const client of open) client.close();
    await ctx?.close();
  });

  it('sends a data centre\'s events to those whose pages show them, and nothing else', async () => {
    const operator = await live(base, { token: watcher.token, tenantId: 100 });
    const administrator = await live(base, { token: admin, tenantId: 100 });
    const elsewhere = await live(base, { token: admin, tenantId: 101 });
    expect([operator.status, administrator.status, elsewhere.status]).toEqual([200, 200, 200]);
    expect(operator.headers.get('content-type')).toContain('text/event-stream');
    await Promise.all([operator, administrator, elsewhere].map((client) => client.next((m) => m.event === 'ready')));
    await raise(alarm(1, 101), order(1), { name: 'lock.heartbeat', payload: { tenantId: 100, lockIds: [1, 2] } });
    await emit(ctx.database.system, 'account.changed', { tenantId: null, accountId: 999 }); // platform-wide: never on a stream
    await raise(alarm(2)); // the marker: after it, nothing else may have come
    const marker = await operator.next((m) => m.event === 'lock.alarm');
    expect(marker.data).toEqual({ tenantId: 100, lockId: 2, alertId: 2, kind: 'tamper', cleared: false });
    expect(marker.id).toMatch(/^[0-9a-f]{8}-\d+$/);
    expect(operator.messages.map((m) => m.event)).toEqual(['ready', 'lock.alarm']);
    await administrator.next((m) => m.event === 'lock.alarm' && m.data.lockId === 2);
    expect(administrator.messages.map((m) => m.event)).toEqual(['ready', 'order.state', 'lock.heartbeat', 'lock.alarm']);
    await elsewhere.next((m) => m.event === 'lock.alarm');
    expect(elsewhere.messages.map((m) => [m.event, m.data.lockId])).toEqual([['ready', undefined], ['lock.alarm', 1]]);
  });

  it('opens with a ticket once, within its lifetime, in the ticket\'s data centre', async () => {
    const { ticket, expiresInS } = await ticketFor(admin, 101);
    expect(expiresInS).toBe(30);
    const stream = await live(base, { ticket });
    expect(stream.status).toBe(200);
    await stream.next((m) => m.event === 'ready');
    await raise(alarm(3, 100), alarm(4, 101));
    expect((await stream.next((m) => m.event === 'lock.alarm')).data.lockId).toBe(4);
    const again = await live(base, { ticket });
    expect([again.status, again.refusal?.code]).toEqual([403, 'TOKEN_EXPIRED']);
    const stale = await ticketFor(admin);
    await ctx.database.system.execute(sql`update live_tickets set expires_at = now() - interval '1 second'`);
    const late = await live(base, { ticket: stale.ticket });
    expect([late.status, late.refusal?.code]).toEqual([403, 'TOKEN_EXPIRED']);
    const forged = await live(base, { ticket: 'not-a-ticket' });
    expect([forged.status, forged.refusal?.code]).toEqual([403, 'TOKEN_EXPIRED']);
    const anonymous = await live(base);
    expect([anonymous.status, anonymous.refusal?.code]).toEqual([403, 'TOKEN_EXPIRED']);
  });

  it('resumes after Last-Event-ID, and answers an unknown or expired one with reset', async () => {
    const first = await live(base, { token: admin });
    await first.next((m) => m.event === 'ready');
    await raise(order(10));
    const seen = (await first.next((m) => m.event === 'order.state')).id as string;
    first.close();
    await raise(order(11), alarm(12));
    const resumed = await live(base, { token: admin, lastEventIdHeader: seen });
    expect((await resumed.next((m) => m.event === 'ready')).data).toEqual({ resumed: true });
    await resumed.next((m) => m.event === 'lock.alarm');
    expect(resumed.messages.map((m) => [m.event, m.data.orderId ?? m.data.lockId])).toEqual([['ready', undefined], ['order.state', 11], ['lock.alarm', 12]]);
    const unknown = await live(base, { token: admin, lastEventId: 'deadbeef-1' });
    expect((await unknown.next((m) => m.event === 'reset')).data).toEqual({ reason: 'unknown' });
    // 10,001 events later the ring no longer holds what followed `seen`.
    const flood = Array.from({ length: 10_001 }, (_, i): DomainEvent => ({ name: 'push.queued', payload: { tenantId: 100, count: i + 1 } }));
    await raise(...flood);
    const expired = await live(base, { token: admin, lastEventId: seen });
    expect((await expired.next((m) => m.event === 'reset')).data).toEqual({ reason: 'expired' });
  });

  it('merges a burst of one event into at most one message per second', async () => {
    const stream = await live(base, { token: admin });
    await stream.next((m) => m.event === 'ready');
    // One transaction: its 500 events reach the stream together (however slow the machine), within one window.
    await raise(...Array.from({ length: 500 }, (_, i): DomainEvent => ({ name: 'lock.heartbeat', payload: { tenantId: 100, lockIds: [i + 1] } })));
    const merged = await stream.next((m) => m.event === 'lock.heartbeat' && m.data.merged !== undefined);
    const heartbeats = stream.messages.filter((m) => m.event === 'lock.heartbeat');
    expect(heartbeats).toHaveLength(2); // the first at once, the other 499 in one message at the window's end
    expect(merged.data.merged).toBe(499);
    expect(new Set([...(heartbeats[0]?.data.lockIds ?? []), ...merged.data.lockIds]).size).toBe(500);
  });

  it('answers HEAD with the head of a stream, without opening one', async () => {
    const head = await call(ctx.app, admin, { method: 'HEAD', url: '/iot/v1/events' });
    expect([head.statusCode, String(head.headers['content-type'])]).toEqual([200, expect.stringContaining('text/event-stream')]);
  });

  it('is not compressed: each message leaves as it is written', async () => {
    const stream = await live(base, { token: admin, headers: { 'accept-encoding': 'gzip, br' } });
    await stream.next((m) => m.event === 'ready');
    expect(stream.headers.get('content-encoding')).toBeNull();
    await raise(alarm(20));
    await stream.next((m) => m.event === 'lock.alarm' && m.data.lockId === 20);
  });

  it('closes the stream of a sign-in that signs out', async () => {
    const signedIn = await operatorWith(ctx.app, admin, 'leaving-operator', ['LOCK_ALERT_LOG']);
    const stream = await live(base, { ticket: (await ticketFor(signedIn.token)).ticket });
    await stream.next((m) => m.event === 'ready');
    dataOf(await call(ctx.app, signedIn.token, { method: 'POST', url: '/oauth/logout' }));
    expect((await stream.next((m) => m.event === 'closed', 15_000)).data).toEqual({ reason: 'signedOut' });
    await stream.ended;
  });

  it('takes an operator\'s new authorities at once: a removed page\'s events stop', async () => {
    const stream = await live(base, { token: watcher.token });
    await stream.next((m) => m.event === 'ready');
    dataOf(await call(ctx.app, admin, { method: 'POST', url: '/v1/sysRole/update', payload: { id: watcher.roleId, name: 'alarm-watcher-role', description: '', authorities: ['HEARTBEAT_LOG'] } }));
    expect((await stream.next((m) => m.event === 'reset', 15_000)).data).toEqual({ reason: 'authorities' });
    await raise(alarm(30), { name: 'lock.heartbeat', payload: { tenantId: 100, lockIds: [30] } });
    await stream.next((m) => m.event === 'lock.heartbeat');
    expect(stream.messages.filter((m) => m.event === 'lock.alarm' && m.data.lockId === 30)).toEqual([]);
  });

  it('ends every stream when the app closes, without waiting for the client', async () => {
    const stream = await live(base, { token: admin });
    await stream.next((m) => m.event === 'ready');
    const closing = ctx.app.close();
    expect((await stream.next((m) => m.event === 'closed')).data).toEqual({ reason: 'shutdown' });
    await closing;
    await stream.ended;
  });
});
