/**
 * The live stream's filter, coalescing and ids (stream.ts), and the hub's resume (hub.ts), on a
 * recording sink with fake timers.
 */
import type { Authority, DomainEvent } from '@iot/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIVE_RING_SIZE, LiveHub } from './hub.js';
import { LIVE_MAX_BACKLOG_BYTES, LiveStream } from './stream.js';

type Message = { id: string; event: string; data: Record<string, unknown> };

function recorder() {
  const messages: Message[] = [];
  const sink = { backlogBytes: 0, ended: false, send: (m: unknown) => { messages.push(m as Message); }, backlog: () => sink.backlogBytes, end: () => { sink.ended = true; } };
  return { messages, sink };
}

const signIn = (authorities: Authority[], type = 1) => ({ accountId: 7, username: 'op', type, sessionId: 1, authorities: new Set(authorities) });
const heartbeat = (lockIds: number[], tenantId = 100): DomainEvent => ({ name: 'lock.heartbeat', payload: { tenantId, lockIds } });
const alarm = (lockId: number, tenantId = 100): DomainEvent => ({ name: 'lock.alarm', payload: { tenantId, lockId, alertId: lockId, kind: 'tamper', cleared: false } });

describe('live stream', () => {
  let hub: LiveHub;
  beforeEach(() => {
    vi.useFakeTimers();
    hub = new LiveHub(async (stream) => stream.signIn, { warn() {} });
  });
  afterEach(() => {
    hub.closeAll();
    vi.useRealTimers();
  });

  function open(authorities: Authority[], lastEventId?: string) {
    const { messages, sink } = recorder();
    const resume = hub.resume(lastEventId);
    const stream: LiveStream = new LiveStream(sink, 'family', 100, signIn(authorities), { epoch: hub.epoch, startSeq: resume.startSeq, onClose: () => hub.remove(stream) });
    if (resume.kind === 'reset') stream.control('reset', { reason: resume.reason });
    if (resume.kind === 'replay') for (const event of resume.events) stream.offer(event);
    hub.add(stream, hub.latestSeq);
    return { messages, sink, stream };
  }

  it('passes only its data centre\'s events that its pages show', () => {
    const { messages } = open(['LOCK_ALERT_LOG']);
    hub.receive(alarm(1, 101)); // another data centre
    hub.receive(heartbeat([1])); // no page of this operator shows heartbeats
    hub.receive({ name: 'session.revoked', payload: { tenantId: null, accountId: 99 } }); // platform-wide
    hub.receive({ name: 'order.state', payload: { tenantId: 100, orderId: 1, tradeState: 'SUCCESS' } });
    hub.receive(alarm(2));
    expect(messages.map((m) => [m.event, m.data.lockId])).toEqual([['lock.alarm', 2]]);
  });

  it('passes an addressed event (the inbox) only to the accounts it names, whatever their authorities', () => {
    const { messages } = open([]); // account 7, no page keys
    hub.receive({ name: 'notification.inbox', payload: { tenantId: 100, accountIds: [8, 9], change: 'added', notificationId: 1 } });
    hub.receive({ name: 'notification.inbox', payload: { tenantId: 101, accountIds: [7], change: 'added', notificationId: 2 } }); // another data centre
    hub.receive({ name: 'notification.inbox', payload: { tenantId: 100, accountIds: [5, 7], change: 'added', notificationId: 3 } });
    expect(messages.map((m) => [m.event, m.data.notificationId])).toEqual([['notification.inbox', 3]]);
  });

  it('sends the first event of a name at once and merges the rest of its second into one message', () => {
    const { messages } = open(['HEARTBEAT_LOG', 'LOCK_ALERT_LOG']);
    hub.receive(heartbeat([1, 2]));
    for (let lock = 3; lock < 300; lock++) hub.receive(heartbeat([lock]));
    hub.receive(alarm(9)); // another name is not held back by the heartbeats' window
    expect(messages.map((m) => m.event)).toEqual(['lock.heartbeat', 'lock.alarm']);
    // The alarm's id stops before the first held heartbeat: resuming from it loses none.
    expect(messages[1]?.id).toBe(`${hub.epoch}-1`);
    vi.advanceTimersByTime(1000);
    expect(messages).toHaveLength(3);
    const merged = messages[2] as Message;
    expect(merged.event).toBe('lock.heartbeat');
    expect(merged.data.merged).toBe(297);
    expect((merged.data.lockIds as number[]).length).toBe(297);
    expect(merged.id).toBe(`${hub.epoch}-299`);
    // A quiet second later, the next event goes out at once again.
    vi.advanceTimersByTime(1000);
    hub.receive(heartbeat([5]));
    expect(messages).toHaveLength(4);
  });

  it('merges single-device events into the locks they touched', () => {
    const { messages } = open(['LOCK_ALERT_LOG']);
    hub.receive(alarm(1));
    hub.receive(alarm(2));
    hub.receive(alarm(3));
    vi.advanceTimersByTime(1000);
    expect(messages.map((m) => m.data)).toEqual([
      { tenantId: 100, lockId: 1, alertId: 1, kind: 'tamper', cleared: false },
      { tenantId: 100, lockId: 3, alertId: 3, kind: 'tamper', cleared: false, merged: 2, lockIds: [2, 3] },
    ]);
  });

  it('resumes after a seen id, and resets an unknown or expired one', () => {
    const first = open(['LOCK_ALERT_LOG']);
    hub.receive(alarm(1));
    const seen = first.messages[0]?.id as string;
    first.stream.close();
    hub.receive(alarm(2));
    hub.receive(heartbeat([4]));
    vi.advanceTimersByTime(1000);
    hub.receive(alarm(3));
    const resumed = open(['LOCK_ALERT_LOG'], seen);
    vi.advanceTimersByTime(1000);
    expect(resumed.messages.map((m) => m.data.lockId)).toEqual([2, 3]);
    expect(open(['LOCK_ALERT_LOG'], 'deadbeef-1').messages[0]?.data).toEqual({ reason: 'unknown' });
    expect(open(['LOCK_ALERT_LOG'], `${hub.epoch}-99999`).messages[0]?.data).toEqual({ reason: 'unknown' });
    for (let i = 0; i <= LIVE_RING_SIZE; i++) hub.receive(heartbeat([1]));
    expect(open(['LOCK_ALERT_LOG'], seen).messages[0]?.data).toEqual({ reason: 'expired' });
  });

  it('tells every stream to refetch when the bus lost notifications', () => {
    const a = open(['LOCK_ALERT_LOG']);
    const b = open(['HEARTBEAT_LOG']);
    hub.resync();
    expect([a.messages, b.messages].map((messages) => messages.map((m) => [m.event, m.data]))).toEqual([
      [['reset', { reason: 'missed' }]], [['reset', { reason: 'missed' }]],
    ]);
  });

  it('closes a stream whose client stops reading', () => {
    const { messages, sink, stream } = open(['LOCK_ALERT_LOG']);
    sink.backlogBytes = LIVE_MAX_BACKLOG_BYTES + 1;
    hub.receive(alarm(1));
    expect(messages.map((m) => [m.event, m.data])).toEqual([['closed', { reason: 'slow' }]]);
    expect([sink.ended, stream.isOpen, hub.size]).toEqual([true, false, 0]);
  });

  it('checks the sign-in again on its events: closes a revoked one, takes new authorities with a reset', async () => {
    let current: ReturnType<typeof signIn> | undefined = signIn(['LOCK_ALERT_LOG', 'HEARTBEAT_LOG']);
    hub = new LiveHub(async () => current, { warn() {} });
    const { messages, sink } = open(['LOCK_ALERT_LOG', 'HEARTBEAT_LOG']);
    current = signIn(['LOCK_ALERT_LOG']);
    hub.receive({ name: 'role.changed', payload: { tenantId: 100, roleId: 1 } });
    await vi.waitFor(() => expect(messages.at(-1)?.event).toBe('reset'));
    hub.receive(heartbeat([1]));
    expect(messages.map((m) => m.event)).toEqual(['reset']);
    hub.receive({ name: 'session.revoked', payload: { tenantId: null, accountId: 8 } }); // someone else
    current = undefined;
    hub.receive({ name: 'session.revoked', payload: { tenantId: null, accountId: 7, family: 'family' } });
    await vi.waitFor(() => expect(sink.ended).toBe(true));
    expect(messages.at(-1)).toMatchObject({ event: 'closed', data: { reason: 'signedOut' } });
  });
});
