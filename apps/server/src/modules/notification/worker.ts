/**
 * The notification job (issue #25): reacts to raised alarms (`lock.alarm`, `airSwitch.alarm`) by
 * producing notifications (produce.ts) in the data centre's transaction, and delivers them: claims
 * due deliveries with FOR UPDATE SKIP LOCKED (a claim is a lease, so several instances share the
 * table), sends each through its channel's provider, and records sent, a retry after
 * NOTIFICATION_RETRY_SCHEDULE_MS[attempt], or failed with the reason once the schedule is spent.
 * Only the instance whose transaction raised an alarm (a `local` event) produces its notifications,
 * so N instances do not notify N times. It sleeps (jobs/loop.ts) until woken or a retry is due.
 */
import { randomUUID } from 'node:crypto';
import { NOTIFICATION_RETRY_SCHEDULE_MS } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Database } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { SAFETY_SWEEP_MS } from '../../config.js';
import { startWorkerLoop } from '../../jobs/loop.js';
import { type EgressPolicy, PUSH_TIMEOUT_MS } from '../subscription/egress.js';
import { type Claimed, claimNotificationDeliveries, channelOf } from './claim.js';
import { alarmMessage } from './messages.js';
import { type RaisedAlarm, produceNotifications } from './produce.js';
import { PROVIDERS } from './providers/index.js';

export interface NotificationWorkerOptions {
  database: Database;
  box: SecretBox;
  policy: EgressPolicy;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** Retry delays, ms (default NOTIFICATION_RETRY_SCHEDULE_MS). */
  scheduleMs?: readonly number[];
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
  const leaseS = (PUSH_TIMEOUT_MS + 5000) / 1000;
  const producing = new Set<Promise<void>>();

  async function attempt(claimed: Claimed): Promise<{ id: number; error: string | null; attempts: number }> {
    const channel = channelOf(claimed, box);
    const message = { ...alarmMessage(channel.language, claimed), id: randomUUID(), occurredAt: claimed.firstAt };
    const result = await PROVIDERS[channel.kind](channel, message, policy);
    return { id: claimed.id, error: result.sent ? null : (result.error ?? 'not accepted'), attempts: claimed.attempts };
  }

  async function pass(): Promise<number> {
    const claimed = await claimNotificationDeliveries(database.system, 50, leaseS);
    const outcomes = await Promise.all(claimed.map(attempt));
    if (outcomes.length === 0) return 0;
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
    return row?.ms == null ? undefined : Number(row.ms);
  }

  let lastTotal = 0;
  const loop = startWorkerLoop({
    name: 'notification delivery', safetyMs: SAFETY_SWEEP_MS, minDelayMs: 50, log,
    async run() {
      lastTotal = await pass();
      return lastTotal > 0 ? 0 : nextDueMs();
    },
  });

  function produce(alarm: RaisedAlarm): void {
    const work = database.withTenant(alarm.tenantId, (tx) => produceNotifications(tx, alarm))
      .then((due) => { if (due > 0) loop.wake(); })
      .catch((error: Error) => log.warn({ err: error, tenantId: alarm.tenantId }, 'notifications of an alarm not produced'))
      .finally(() => producing.delete(work));
    producing.add(work);
  }

  const stops = [
    database.events.on('lock.alarm', (event, { local }) => {
      if (local && !event.cleared) produce({ tenantId: event.tenantId, deviceKind: 'lock', deviceId: event.lockId, kind: event.kind, alertId: event.alertId });
    }),
    database.events.on('airSwitch.alarm', (event, { local }) => {
      if (local && !event.cleared) produce({ tenantId: event.tenantId, deviceKind: 'airSwitch', deviceId: event.airSwitchId, kind: event.kind, alertId: null });
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
      await Promise.all([...producing]);
      await loop.close();
    },
  };
}
