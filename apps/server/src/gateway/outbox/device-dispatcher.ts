/**
 * One command dispatcher for every device kind. The loop here decides WHEN to dispatch; a kind's
 * DispatchPolicy says HOW its commands are swept, claimed, sent and fall due (locks:
 * outbox/dispatcher.ts, air switches: outbox/air-switch-dispatcher.ts). A third kind is a policy, not a
 * fork of the loop.
 *
 * When it dispatches (jobs/loop.ts: it sleeps otherwise, making no query):
 * - wake(deviceIds): devices that got a command queued (the `command.queued` event of its kind, from
 *   any instance) or that a kind knows are reachable now (a lock's committed uplink);
 * - at the earliest due time the policy reports and at a safety sweep every `safetyMs`: the policy's
 *   bounded sweep, then a claim over every device until none is left. This also resumes the queue
 *   after a restart or a lost notification.
 * A wake makes no query while no command can be queued: a due pass whose policy reports none QUEUED
 * clears `queuedMayExist`; a `command.queued` event, a `command.state` event back to QUEUED (a retry,
 * on any instance) or a claim given back (the device not connected) sets it again.
 * Claims are FOR UPDATE SKIP LOCKED in the table's module, so any number of dispatchers may share one
 * database without sending a command twice.
 */
import type { DeviceKind } from '@iot/contract';
import type { Database } from '../../db/client.js';
import { type NextDue, startWorkerLoop } from '../../jobs/loop.js';
import type { GatewayLog } from '../log.js';

/** What a dispatcher counts: publishes attempted / failed, claims given back, PUBACKs recorded, sweep outcomes. */
export interface DispatchCounts {
  sent: number;
  notConnected: number;
  publishFailed: number;
  delivered: number;
  retried: number;
  timedOut: number;
  expired: number;
}

/** What became of one claimed command: published, given back (not connected), publish failed, or failed for good. */
export type SendOutcome = 'sent' | 'notConnected' | 'publishFailed' | 'failed';

/** How one device kind's commands are dispatched (see the module comment). */
export interface DispatchPolicy<Claimed> {
  /** The `deviceKind` of the command events this dispatcher serves. */
  kind: DeviceKind;
  /** The worker loop's name in logs. */
  name: string;
  /** Rows per claim. */
  batch: number;
  /** Safety sweep period, ms. */
  safetyMs: number;
  /** The due pass's bounded sweep (response timeouts, expiries): what it did, to count. */
  sweep(): Promise<Partial<Pick<DispatchCounts, 'retried' | 'timedOut' | 'expired'>>>;
  /** Claims at most `limit` sendable commands of `deviceIds` (undefined: of every device). */
  claim(deviceIds: number[] | undefined, limit: number): Promise<Claimed[]>;
  /** Sends one claimed command (a `notConnected` command was given back: QUEUED again). */
  send(command: Claimed): Promise<SendOutcome>;
  /** ms until the earliest due time (null: no command open) and whether any command is QUEUED. */
  nextDue(): Promise<{ ms: number | null; queued: boolean }>;
  /** When to look again after a wake's pass that sent `sent` commands, ms (undefined: at the next wake or due time). */
  afterWake(sent: number): NextDue;
  /**
   * Registers the transport's PUBACK listener, which hands each of its commands' PUBACKs to `record`:
   * `mark` records the delivery (true: a command changed), `fields` name it in a warning.
   */
  listenDelivered(record: (mark: () => Promise<boolean>, fields: Record<string, unknown>) => void): void;
}

export interface DeviceDispatcher {
  /** Dispatches to these devices soon (they are reachable, or got a command). */
  wake(deviceIds: readonly number[]): void;
  /** Runs a sweep and a full dispatch pass now; resolves when done (tests). */
  tick(): Promise<void>;
  stats(): DispatchCounts;
  /** Stops the loop and waits for the pass in progress. Queued commands stay in the database. */
  close(): Promise<void>;
}

/** Starts the dispatcher of `policy` (it sleeps between due times and wakes until close()). */
export function startDeviceDispatcher<Claimed>(policy: DispatchPolicy<Claimed>, options: { database: Database; log: GatewayLog }): DeviceDispatcher {
  const { database, log } = options;
  const counters: DispatchCounts = { sent: 0, notConnected: 0, publishFailed: 0, delivered: 0, retried: 0, timedOut: 0, expired: 0 };
  const pending = new Set<number>();
  let closed = false;
  /** False only while the last due pass saw no QUEUED command and nothing since announced one. */
  let queuedMayExist = true;
  /** Counts announcements, so a due pass's "none queued" does not hide one that came during its query. */
  let announced = 0;
  const queuedAnnounced = () => { queuedMayExist = true; announced++; };

  async function send(command: Claimed): Promise<void> {
    const outcome = await policy.send(command);
    if (outcome === 'notConnected') {
      counters.notConnected++;
      queuedAnnounced();
    } else if (outcome === 'sent') counters.sent++;
    else if (outcome === 'publishFailed') {
      counters.sent++;
      counters.publishFailed++;
    }
  }

  /** A pass: the sweep when `due`, then claims (of the woken devices, or of every device) until none is left. */
  async function pass(due: boolean): Promise<NextDue> {
    const deviceIds = due ? undefined : [...pending];
    pending.clear();
    if (deviceIds?.length === 0 || (deviceIds && !queuedMayExist)) return undefined;
    if (due) {
      const swept = await policy.sweep();
      counters.retried += swept.retried ?? 0;
      counters.timedOut += swept.timedOut ?? 0;
      counters.expired += swept.expired ?? 0;
    }
    let claimed: Claimed[];
    let sent = 0;
    do {
      claimed = await policy.claim(deviceIds, policy.batch);
      sent += claimed.length;
      await Promise.all(claimed.map(send));
    } while (claimed.length === policy.batch && !closed);
    if (!due) return policy.afterWake(sent);
    const before = announced;
    const next = await policy.nextDue();
    if (!next.queued && announced === before) queuedMayExist = false;
    return next.ms == null ? undefined : next.ms;
  }

  const loop = startWorkerLoop({ name: policy.name, run: pass, safetyMs: policy.safetyMs, log });

  policy.listenDelivered((mark, fields) => {
    if (closed) return;
    mark().then(
      (done) => { if (done) counters.delivered++; },
      (error: unknown) => log.warn({ ...fields, err: error }, `${policy.name}: delivery not recorded`),
    );
  });
  const stopQueued = database.events.on('command.queued', ({ deviceKind, deviceId }) => {
    if (deviceKind !== policy.kind) return;
    queuedAnnounced();
    wake([deviceId]);
  });
  const stopStates = database.events.on('command.state', ({ deviceKind, state }) => {
    if (deviceKind === policy.kind && state === 'QUEUED') queuedAnnounced();
  });
  const stopResync = database.events.onResync(() => { void loop.sweepNow(); });

  function wake(deviceIds: readonly number[]): void {
    if (closed) return;
    for (const id of deviceIds) pending.add(id);
    loop.wake();
  }

  return {
    wake,
    tick: () => loop.sweepNow(),
    stats: () => ({ ...counters }),
    async close() {
      closed = true;
      stopQueued();
      stopStates();
      stopResync();
      await loop.close();
    },
  };
}
