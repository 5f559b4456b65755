/**
 * The lock kind's store (device-kinds.ts): writes a batch of validated lock uplinks in one transaction (group commit), through the services of the
 * modules owning the tables: heartbeats into the heartbeat log (logHeartbeat) and the locks' latest
 * readings (lockDevice); every other type into the uplink log (uplinkLog, (lock, seq) unique) and
 * then to its handler (uplink-handlers.ts); locks of event uplinks get last_uplink_at and last_seq
 * (lockDevice). One write per lock row and batch: PGlite pays per row.
 */
import type { protocol } from '@iot/contract';
import type { Database } from '../db/client.js';
import { type HeartbeatReading, applyHeartbeatReadings, markUplinksSeen } from '../modules/lockDevice/readings.js';
import { clearSilentLocks, deriveFromUplinks } from '../modules/analysis/derived.js';
import { type HeartbeatRecord, insertHeartbeats } from '../modules/logHeartbeat/writer.js';
import { lockSeqKey } from '../db/rows.js';
import { LOCK_SEQ_WRITERS, lockSeqWriters } from '../db/seq-writers.js';
import { insertUplinks } from '../modules/uplinkLog/writer.js';
import { enqueuePushEvents, eventOfUplink, heartbeatEvent, presenceEvent, type PushEvent } from '../modules/subscription/outbox.js';
import { type EventType, type StoredUplink, type UplinkHandlers, uplinkHandlers } from './uplink-handlers.js';

/** One validated uplink of an authenticated lock. */
export interface UplinkRecord {
  lockId: number;
  tenantId: number;
  imei: string;
  message: protocol.UplinkMessage;
}

type HeartbeatUplink = UplinkRecord & { message: Extract<protocol.UplinkMessage, { type: 'heartbeat' }> };

/** Stores `records`; returns how many were new. Throws (storing nothing) when the database fails. */
export async function storeUplinks(database: Database, records: readonly UplinkRecord[], handlers: UplinkHandlers = uplinkHandlers): Promise<{ inserted: number }> {
  if (records.length === 0) return { inserted: 0 };
  const heartbeats: HeartbeatUplink[] = [];
  const events: UplinkRecord[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    const { message } = record;
    // One message per (lock, seq) whatever its type (docs/protocol.md): the first in the batch wins,
    // the owner services skip a (lock, seq) already stored in either log.
    const key = lockSeqKey(record.lockId, message.seq);
    if (seen.has(key)) continue;
    seen.add(key);
    if (message.type === 'heartbeat') {
      heartbeats.push({ ...record, message });
    } else {
      events.push(record);
    }
  }
  return database.transaction(async (tx) => {
    // Every lock's writer lock at once, in id order: the log writers below take theirs again (free),
    // and two batches sharing locks cannot each hold one the other waits for.
    await lockSeqWriters(tx, LOCK_SEQ_WRITERS, [...heartbeats, ...events].map((r) => r.lockId));
    const stored = await insertHeartbeats(tx, heartbeats.map(({ lockId, tenantId, message }): HeartbeatRecord =>
      ({ lockId, tenantId, seq: message.seq, ts: message.ts, data: message.data })));
    let inserted = stored.size;
    // Only a new heartbeat moves its lock's readings and is pushed: a redelivery changes nothing.
    const newest = new Map<number, HeartbeatReading>();
    const newestHeartbeat = new Map<number, HeartbeatUplink>();
    for (const record of heartbeats) {
      const { message } = record;
      if (!stored.has(lockSeqKey(record.lockId, message.seq))) continue;
      const latest = newest.get(record.lockId);
      if (!latest || message.seq > latest.seq) {
        newest.set(record.lockId, { lockId: record.lockId, seq: message.seq, data: message.data });
        newestHeartbeat.set(record.lockId, record);
      }
    }
    const cameOnline = new Set(await applyHeartbeatReadings(tx, [...newest.values()]));
    await clearSilentLocks(tx, [...cameOnline]); // a silent lock that beats again is no longer silent
    // Open platform: the batch's events to subscribed endpoints, one statement, this transaction.
    const pushEvents: PushEvent[] = [];
    for (const r of newestHeartbeat.values()) {
      if (cameOnline.has(r.lockId)) pushEvents.push(presenceEvent(r.tenantId, r.lockId, r.imei, 'online', r.message.ts, r.message.seq, new Date().toISOString()));
      pushEvents.push(heartbeatEvent(r.tenantId, r.lockId, r.imei, r.message));
    }
    if (events.length) {
      const idOf = await insertUplinks(tx, events);
      inserted += idOf.size;
      const byType = new Map<EventType, StoredUplink[]>();
      for (const record of events) {
        const uplinkId = idOf.get(lockSeqKey(record.lockId, record.message.seq));
        if (uplinkId === undefined) continue;
        const pushEvent = eventOfUplink(record);
        if (pushEvent) pushEvents.push(pushEvent);
        const type = record.message.type as EventType;
        const list = byType.get(type) ?? [];
        list.push({ uplinkId, ...record });
        byType.set(type, list);
      }
      // Before the handlers: a batch that fails after this point rolls its pushes back with it.
      await enqueuePushEvents(tx, pushEvents.sort((a, b) => Number(a.data.seq) - Number(b.data.seq))); // per-lock order
      pushEvents.length = 0;
      for (const [type, stored] of byType) await (handlers[type] as ((tx: unknown, u: StoredUplink[]) => Promise<void>) | undefined)?.(tx, stored);
      // ForcedEntry and bruteForce, from what the handlers stored.
      await deriveFromUplinks(tx, [...byType.values()].flat());
    }
    await enqueuePushEvents(tx, pushEvents); // heartbeat-only batches
    const maxSeq = new Map<number, number>();
    for (const r of events) maxSeq.set(r.lockId, Math.max(maxSeq.get(r.lockId) ?? -1, r.message.seq));
    await markUplinksSeen(tx, maxSeq);
    return { inserted };
  });
}
