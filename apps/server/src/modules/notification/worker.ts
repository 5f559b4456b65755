/**
 * The notification job: reacts to raised alarms (`lock.alarm`, `airSwitch.alarm`) and a
 * the operational events (`credential.sync` failed, a lock's `command.state` FAILED / TIMEOUT /
 * EXPIRED, a rollout's `ota.state` PAUSED, `push.paused`, an order's `order.state` SUCCESS / REFUND,
 * `stay.notReady`) by
 * producing notifications (produce.ts) in the data centre's transaction, and delivers them: claims
 * due deliveries with FOR UPDATE SKIP LOCKED (a claim is a lease, so several instances share the
 * table), sends each through its channel's provider, and records sent, a retry after
 * NOTIFICATION_RETRY_SCHEDULE_MS[attempt], or failed with the reason once the schedule is spent.
 * Only the instance whose transaction raised an alarm (a `local` event) produces its notifications,
 * so N instances do not notify N times. Each pass first escalates what is due (escalate.ts). It sleeps
 * (jobs/loop.ts) until woken or a retry or escalation is due.
 */
import { randomUUID } from 'node:crypto';
import { FAILED_SYNC_STATES, NOTIFICATION_RETRY_SCHEDULE_MS } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Database } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { SAFETY_SWEEP_MS } from '../../config.js';
import { startWorkerLoop } from '../../jobs/loop.js';
import { type EgressPolicy, PUSH_TIMEOUT_MS } from '../subscription/egress.js';
import { type Claimed, claimNotificationDeliveries, channelOf } from './claim.js';
import { escalateDue, nextEscalationMs } from './escalate.js';
import { sendMailTo } from './mailer.js';
import { alarmMessage } from './messages.js';
import { type RaisedAlarm, produceNotifications } from './produce.js';
import { PROVIDERS } from './providers/index.js';

/** Sync states and command states that are failures (credentialSyncFailed, commandFailed). */
const FAILED: ReadonlySet<string> = new Set(FAILED_SYNC_STATES);
const COMMAND_FAILURES: ReadonlySet<string> = new Set(['FAILED', 'TIMEOUT', 'EXPIRED']);

/** Alarms of one data centre produced in one transaction at most. */
const PRODUCE_CHUNK = 200;

export interface NotificationWorkerOptions {
  database: Database;
  box: SecretBox;
  policy: EgressPolicy;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** Retry delays, ms (default NOTIFICATION_RETRY_SCHEDULE_MS). */
  scheduleMs?: readonly number[];
  /** The clock of production, quiet hours and escalation (tests move it; default the system clock). */
  now?: () => Date;
}

export interface NotificationWorker {
  /** Produces what the alarm events so far asked for, then delivers until nothing is due (tests, benchmarks). */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the job; it runs until close(). */
export function startNotificationWorker(options: NotificationWorkerOptions): NotificationWorker {
  const { database, box, policy, log } = options;
  const schedule = options.scheduleMs ?? NOTIFICATION_RETRY_SCHEDULE_MS;
  const now = options.now ?? (() => new Date());
  const leaseS = (PUSH_TIMEOUT_MS + 5000) / 1000;
  const producing = new Set<Promise<void>>();

  async function attempt(claimed: Claimed): Promise<{ id: number; error: string | null; attempts: number }> {
    const channel = channelOf(claimed, box);
    const { recipient } = claimed;
    // A recipient's e-mail: to the account's address as it is now, in the account's language (else the channel's).
    if (recipient && (!recipient.email || !recipient.verified)) return { id: claimed.id, error: 'e-mail not verified', attempts: claimed.attempts };
    const message = { ...alarmMessage(recipient?.language ?? channel.language, claimed), id: randomUUID(), occurredAt: claimed.firstAt };
    const result = recipient?.email ? await sendMailTo(channel, recipient.email, message, policy) : await PROVIDERS[channel.kind](channel, message, policy);
    return { id: claimed.id, error: result.sent ? null : (result.error ?? 'not accepted'), attempts: claimed.attempts };
  }

  async function pass(): Promise<number> {
    const escalated = await escalateDue(database.system, now());
    const claimed = await claimNotificationDeliveries(database.system, 50, leaseS);
    const outcomes = await Promise.all(claimed.map(attempt));
    if (outcomes.length === 0) return escalated;
    const p = <V>(pick: (o: (typeof outcomes)[number]) => V) => sql.param(outcomes.map(pick));
    const delays = outcomes.map((o) => (o.error === null || o.attempts > schedule.length ? 0 : (schedule[o.attempts - 1] ?? 0) / 1000));
    const states = outcomes.map((o) => (o.error === null ? 'sent' : o.attempts > schedule.length ? 'failed' : 'pending'));
    await database.system.execute(sql`
      update notification_deliveries d set state = v.state, last_error = v.error, sent_at = case when v.state = 'sent' then now() end,
        next_attempt_at = now() + make_interval(secs => v.delay_s)
      from unnest(${p((o) => o.id)}::bigint[], ${sql.param(states)}::text[], ${p((o) => o.error)}::text[], ${sql.param(delays)}::float8[]) as v(id, state, error, delay_s)
      where d.id = v.id`);
    return outcomes.length;
  }

  async function nextDueMs(): Promise<number | undefined> {
    const [row] = rowsOf<{ ms: number | null }>(await database.system.execute(sql`
      select extract(epoch from min(next_attempt_at) - now()) * 1000 as ms from notification_deliveries where state = 'pending'`));
    const escalation = await nextEscalationMs(database.system, now());
    const delivery = row?.ms == null ? undefined : Number(row.ms);
    return delivery === undefined ? escalation : escalation === undefined ? delivery : Math.min(delivery, escalation);
  }

  let lastTotal = 0;
  const loop = startWorkerLoop({
    name: 'notification delivery', safetyMs: SAFETY_SWEEP_MS, minDelayMs: 50, log,
    async run() {
      lastTotal = await pass();
      return lastTotal > 0 ? 0 : nextDueMs();
    },
  });

  /**
   * Alarms wait for the end of the tick (the alarms of one ingest commit arrive together) and are
   * produced per data centre, PRODUCE_CHUNK at a time, each chunk one transaction of a fixed number of
   * statements (produce.ts): a burst of 1,000 alarms is a few transactions (bench/notifications.ts).
   */
  const queued = new Map<number, RaisedAlarm[]>();
  function flush(): void {
    for (const [tenantId, alarms] of queued) {
      queued.delete(tenantId);
      for (let start = 0; start < alarms.length; start += PRODUCE_CHUNK) {
        const chunk = alarms.slice(start, start + PRODUCE_CHUNK);
        const work = database.withTenant(tenantId, (tx) => produceNotifications(tx, chunk, now()))
          .then((due) => { if (due > 0) loop.wake(); })
          .catch((error: Error) => log.warn({ err: error, tenantId, alarms: chunk.length }, 'notifications of alarms not produced'))
          .finally(() => producing.delete(work));
        producing.add(work);
      }
    }
  }
  function produce(alarm: RaisedAlarm): void {
    if (queued.size === 0) {
      const tick = new Promise<void>((resolve) => setImmediate(() => { flush(); resolve(); }));
      producing.add(tick);
      void tick.finally(() => producing.delete(tick));
    }
    const list = queued.get(alarm.tenantId);
    if (list) list.push(alarm);
    else queued.set(alarm.tenantId, [alarm]);
  }

  const stops = [
    database.events.on('lock.alarm', (event, { local }) => {
      if (local && !event.cleared) produce({ tenantId: event.tenantId, deviceKind: 'lock', deviceId: event.lockId, kind: event.kind, alertId: event.alertId });
    }),
    database.events.on('airSwitch.alarm', (event, { local }) => {
      if (local && !event.cleared) produce({ tenantId: event.tenantId, deviceKind: 'airSwitch', deviceId: event.airSwitchId, kind: event.kind, alertId: event.alertId });
    }),
    // A lock's operational events (NOTIFICATION_EVENT_KINDS): no alert row, the kind's own severity.
    database.events.on('credential.sync', (event, { local }) => {
      if (local && FAILED.has(event.state)) produce({ tenantId: event.tenantId, deviceKind: 'lock', deviceId: event.lockId, kind: 'credentialSyncFailed', alertId: null });
    }),
    database.events.on('command.state', (event, { local }) => {
      if (local && event.deviceKind === 'lock' && COMMAND_FAILURES.has(event.state)) produce({ tenantId: event.tenantId, deviceKind: 'lock', deviceId: event.deviceId, kind: 'commandFailed', alertId: null });
    }),
    database.events.on('ota.state', (event, { local }) => {
      if (local && event.rolloutState === 'PAUSED' && event.lockId === undefined) produce({ tenantId: event.tenantId, deviceKind: 'rollout', deviceId: event.rolloutId, kind: 'otaPaused', alertId: null });
    }),
    database.events.on('push.paused', (event, { local }) => {
      if (local) produce({ tenantId: event.tenantId, deviceKind: 'customer', deviceId: event.customerCodeId, kind: 'pushPaused', alertId: null });
    }),
    database.events.on('order.state', (event, { local }) => {
      const kind = event.tradeState === 'SUCCESS' ? 'paymentReceived' : event.tradeState === 'REFUND' ? 'orderRefunded' : undefined;
      if (local && kind) produce({ tenantId: event.tenantId, deviceKind: 'order', deviceId: event.orderId, kind, alertId: null });
    }),
    database.events.on('stay.notReady', (event, { local }) => {
      if (local) produce({ tenantId: event.tenantId, deviceKind: 'stay', deviceId: event.stayId, kind: 'stayNotReady', alertId: null });
    }),
    database.events.onResync(() => loop.wake()),
  ];

  return {
    async drain() {
      while (producing.size > 0) await Promise.all([...producing]);
      do await loop.sweepNow();
      while (lastTotal > 0);
    },
    async close() {
      for (const stop of stops) stop();
      while (producing.size > 0) await Promise.all([...producing]);
      await loop.close();
    },
  };
}
