/**
 * The delivery worker: claims due deliveries with FOR UPDATE SKIP LOCKED (any number of
 * server instances share the outbox; none sends a delivery another holds), POSTs each signed
 * (signing.ts) through the SSRF guard (egress.ts), then records the outcomes of the pass in one
 * transaction:
 * - 2xx: delivered; the endpoint's failure streak ends, and if it had one, its backlog is due at once;
 * - otherwise: retried after PUSH_RETRY_SCHEDULE_MS[attempt] ±20 % jitter, or a dead letter once the
 *   delivery is older than the retry window (24 h); an endpoint failing for `pauseAfterMs` is paused.
 * It sleeps (jobs/loop.ts) until deliveries are queued (`push.queued`, from any instance) or the
 * earliest retry or lease it knows is due, with a safety sweep every `pollMs` (default 5 min).
 * Order: a delivery is claimed only when no older delivery of the same (endpoint, lock) is pending,
 * so a lock's events reach an endpoint in order, across instances. At least once: a claim is a lease
 * (next_attempt_at = now + timeout + 5 s); a crash mid-attempt leaves the row to be sent again, with
 * the same event id. close() stops claiming, lets attempts in flight finish (aborting them after
 * `closeGraceMs`, leaving them leased), and resolves.
 */
import { PUSH_RETRY_SCHEDULE_MS } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Database } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { emitAll } from '../../events/emit.js';
import { SAFETY_SWEEP_MS } from '../../config.js';
import { type NextDue, startWorkerLoop } from '../../jobs/loop.js';
import { type EgressPolicy, PUSH_TIMEOUT_MS, postJson } from './egress.js';
import { signingSecrets } from './keys.js';
import { type Claimed, claimDeliveries } from './claim.js';
import { pushBody } from './payload.js';
import { signedHeaders } from './signing.js';

export interface DeliveryTuning {
  /** Safety sweep period, ms (default 30,000): queued deliveries and due retries wake it sooner. */
  pollMs?: number;
  /** Deliveries per claim (default 100). */
  batch?: number;
  /** Retry delays, ms (default PUSH_RETRY_SCHEDULE_MS). */
  scheduleMs?: readonly number[];
  /** A delivery failing this long after it was queued is a dead letter, ms (default 24 h). */
  retryWindowMs?: number;
  /** An endpoint failing this long is paused, ms (default 24 h). */
  pauseAfterMs?: number;
  /** On close, attempts in flight get this long before they are aborted, ms (default 3000). */
  closeGraceMs?: number;
}

export interface DeliveryWorkerOptions extends DeliveryTuning {
  database: Database;
  box: SecretBox;
  policy: EgressPolicy;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

export interface DeliveryStats { attempted: number; delivered: number; failed: number; dead: number }
export interface DeliveryWorker {
  /** Runs passes until nothing is due (tests, benchmarks). */
  drain(): Promise<void>;
  stats(): DeliveryStats;
  close(): Promise<void>;
}

interface Outcome { claimed: Claimed; ok: boolean; status: number | null; latencyMs: number; error: string | null }

/** Starts the worker; it runs until close(). */
export function startDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { database, box, policy, log } = options;
  const db = database.system;
  const batch = options.batch ?? 100;
  const schedule = options.scheduleMs ?? PUSH_RETRY_SCHEDULE_MS;
  const retryWindowMs = options.retryWindowMs ?? 86_400_000;
  const pauseAfterS = (options.pauseAfterMs ?? 86_400_000) / 1000;
  const leaseS = (PUSH_TIMEOUT_MS + 5000) / 1000;
  const counters: DeliveryStats = { attempted: 0, delivered: 0, failed: 0, dead: 0 };
  const abort = new AbortController();
  let closed = false;

  async function attempt(claimed: Claimed, secrets: Map<number, string[]>): Promise<Outcome | undefined> {
    const body = pushBody(claimed);
    const headers = signedHeaders({ customerCode: claimed.code, eventId: claimed.eventId, eventType: claimed.eventType }, body, secrets.get(claimed.customerCodeId) ?? []);
    counters.attempted++;
    const result = await postJson(claimed.url, headers, body, policy, abort.signal);
    if (abort.signal.aborted) return undefined; // shutting down: the lease expires and another pass sends it again
    return { claimed, ok: result.error === null, status: result.status, latencyMs: result.latencyMs, error: result.error };
  }

  /** Records a pass's outcomes (see the module comment) in one transaction. */
  async function record(outcomes: Outcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const now = Date.now();
    const rows = outcomes.map((o) => {
      const delay = schedule[Math.min(o.claimed.attempts, schedule.length) - 1] ?? schedule[schedule.length - 1] ?? 60_000;
      const jittered = Math.round(delay * (0.8 + Math.random() * 0.4));
      const state = o.ok ? 'delivered' : now + jittered - o.claimed.createdAt > retryWindowMs ? 'dead' : 'pending';
      if (o.ok) counters.delivered++;
      else if (state === 'dead') counters.dead++;
      else counters.failed++;
      return { ...o, state, delayS: o.ok ? 0 : jittered / 1000 };
    });
    const byCode = new Map<number, { ok: number; failed: number }>();
    for (const o of outcomes) {
      const tally = byCode.get(o.claimed.customerCodeId) ?? { ok: 0, failed: 0 };
      tally[o.ok ? 'ok' : 'failed']++;
      byCode.set(o.claimed.customerCodeId, tally);
    }
    const p = <V>(pick: (r: (typeof rows)[number]) => V) => sql.param(rows.map(pick));
    const codes = [...byCode.keys()];
    const c = <V>(pick: (t: { ok: number; failed: number }) => V) => sql.param(codes.map((code) => pick(byCode.get(code) as { ok: number; failed: number })));
    await database.transaction(async (tx) => {
      await tx.execute(sql`
        update push_deliveries d set state = v.state, last_status = v.status, last_latency_ms = v.latency, last_error = v.error,
          delivered_at = case when v.state = 'delivered' then now() end, next_attempt_at = now() + make_interval(secs => v.delay_s)
        from unnest(${p((r) => r.claimed.id)}::bigint[], ${p((r) => r.state)}::text[], ${p((r) => r.status)}::int[],
          ${p((r) => r.latencyMs)}::int[], ${p((r) => r.error)}::text[], ${p((r) => r.delayS)}::float8[]) as v(id, state, status, latency, error, delay_s)
        where d.id = v.id`);
      const changed = rowsOf<{ customer_code_id: string | number; tenant_id: number; recovered: boolean; paused_now: boolean }>(await tx.execute(sql`
        with v as (select * from unnest(${sql.param(codes)}::bigint[], ${c((t) => t.ok)}::int[], ${c((t) => t.failed)}::int[]) as v(id, ok, failed)),
        old as (select customer_code_id, consecutive_failures, paused_at from push_configs where customer_code_id in (select id from v) for update),
        changed as (
          update push_configs c set
            last_success_at = case when v.ok > 0 then now() else c.last_success_at end,
            consecutive_failures = case when v.ok > 0 then 0 else c.consecutive_failures + v.failed end,
            failing_since = case when v.ok > 0 then null else coalesce(c.failing_since, now()) end,
            paused_at = case when v.ok = 0 and c.failing_since < now() - make_interval(secs => ${pauseAfterS}) then coalesce(c.paused_at, now()) else c.paused_at end
          from v, old where c.customer_code_id = v.id and old.customer_code_id = v.id
          returning c.customer_code_id, c.tenant_id, old.consecutive_failures as before, v.ok, old.paused_at is null and c.paused_at is not null as paused_now)
        select customer_code_id, tenant_id, ok > 0 and before > 0 as recovered, paused_now from changed where (ok > 0 and before > 0) or paused_now`));
      const recovered = changed.filter((row) => row.recovered);
      // An endpoint just paused: the notification rules watching pushPaused hear of it.
      await emitAll(tx, changed.filter((row) => row.paused_now).map((row) => ({
        name: 'push.paused' as const, payload: { tenantId: Number(row.tenant_id), customerCodeId: Number(row.customer_code_id) },
      })));
      if (recovered.length > 0) {
        // The endpoint answers again: its backlog waiting on backoff is due now (not leases in flight: claim time + lease).
        await tx.execute(sql`
          update push_deliveries set next_attempt_at = now()
          where state = 'pending' and customer_code_id = any(${sql.param(recovered.map((r) => Number(r.customer_code_id)))}::bigint[])
            and next_attempt_at > now() and next_attempt_at <> last_attempt_at + make_interval(secs => ${leaseS})`);
      }
    });
  }

  async function pass(): Promise<number> {
    let total = 0;
    let claimed: Claimed[];
    do {
      claimed = await claimDeliveries(db, batch, leaseS);
      if (claimed.length === 0) break;
      const secrets = await signingSecrets(db, [...new Set(claimed.map((d) => d.customerCodeId))], box);
      const outcomes = (await Promise.all(claimed.map((d) => attempt(d, secrets)))).filter((o): o is Outcome => o !== undefined);
      if (abort.signal.aborted) break;
      await record(outcomes);
      total += claimed.length;
    } while (claimed.length === batch && !closed);
    return total;
  }

  /** ms until the earliest delivery an endpoint could take (retry, lease, order permitting); undefined when none. */
  async function nextDueMs(): Promise<NextDue> {
    const [row] = rowsOf<{ ms: number | null }>(await db.execute(sql`
      select extract(epoch from min(d.next_attempt_at) - now()) * 1000 as ms
      from push_deliveries d join push_configs c on c.customer_code_id = d.customer_code_id
      where d.state = 'pending' and c.paused_at is null and c.enabled
        and not exists (select 1 from push_deliveries p where p.customer_code_id = d.customer_code_id
          and p.lock_id is not distinct from d.lock_id and p.state = 'pending' and p.id < d.id)`));
    return row?.ms == null ? undefined : Number(row.ms);
  }

  let lastTotal = 0;
  const loop = startWorkerLoop({
    name: 'push delivery', safetyMs: options.pollMs ?? SAFETY_SWEEP_MS, minDelayMs: 100, log,
    async run() {
      lastTotal = await pass();
      return nextDueMs();
    },
  });
  const stops = [database.events.on('push.queued', () => loop.wake()), database.events.onResync(() => loop.wake())];

  return {
    async drain() {
      do await loop.sweepNow();
      while (lastTotal > 0 && !closed);
    },
    stats: () => ({ ...counters }),
    async close() {
      closed = true;
      for (const stop of stops) stop();
      const grace = setTimeout(() => abort.abort(), options.closeGraceMs ?? 3000);
      await loop.close();
      clearTimeout(grace);
      log.info({ ...counters }, 'push delivery worker stopped');
    },
  };
}
