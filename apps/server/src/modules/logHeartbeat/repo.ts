/**
 * 心跳日志 on `heartbeats` (a device log, deviceLog/factory.ts). With a lock: newest first through
 * heartbeats_lock_time; tenant-wide: by id descending (insert order) through the primary key (id,
 * received_at), merged across the day partitions (docs/partitions.md), with the time range pruning
 * partitions and narrowed by the BRIN index on received_at. Counted up to the cap. Times come as ISO
 * text from the database (isoSql): no Date per value on the event loop (the
 * list every console polls, and exports of 100,000 rows read 2,000 at a time).
 */
import { formatVersion, type HeartbeatLogRecord, type LogFilter } from '@iot/contract';
import { desc } from 'drizzle-orm';
import { heartbeats } from '../../db/schema.js';
import { isoSql } from '../../db/sql.js';
import { defineDeviceLog } from '../deviceLog/factory.js';

const columns = {
  id: heartbeats.id, lockId: heartbeats.lockId, seq: heartbeats.seq, battery: heartbeats.battery, rssi: heartbeats.rssi,
  snr: heartbeats.snr, firmwareVersion: heartbeats.firmwareVersion,
  // ISO text from the database: no Date object per value on the page every open console reloads.
  deviceTs: isoSql<string>(heartbeats.deviceTs), receivedAt: isoSql<string>(heartbeats.receivedAt),
};

/** The heartbeat log: list, rows, routes. */
export const heartbeatLog = defineDeviceLog<LogFilter, typeof columns, HeartbeatLogRecord>({
  table: heartbeats, lockColumn: heartbeats.lockId, timeColumn: heartbeats.receivedAt, columns, count: 'capped',
  orderBy: (_filter, byLock) => (byLock ? [desc(heartbeats.receivedAt), desc(heartbeats.id)] : [desc(heartbeats.id)]),
  // Tenant-wide, the time order is the id's (insert order; the primary key, as the default order).
  // Keyset paging follows the order: (time, id) for one lock, the id tenant-wide.
  keyset: (_filter, byLock) => (byLock ? 'time' : 'id'),
  sortColumns: (byLock) => ({ receivedAt: byLock ? heartbeats.receivedAt : heartbeats.id }), idColumn: heartbeats.id,
  // Field by field, in the record's order: a rest/spread per row cost more than it reads.
  toRecord: (row) => ({
    id: row.id, lockId: row.lockId, seq: row.seq, battery: row.battery, rssi: row.rssi, snr: row.snr, firmwareVersion: row.firmwareVersion,
    imei: row.imei, lockName: row.lockName, room: row.room, deviceTs: row.deviceTs, receivedAt: row.receivedAt,
  }),
  exportName: 'heartbeat-log',
  exportColumns: [
    { header: { 'zh-CN': '接收时间', 'en-US': 'Received at' }, value: (r) => r.receivedAt, width: 26, time: true },
    { header: { 'zh-CN': 'IMEI', 'en-US': 'IMEI' }, value: (r) => r.imei },
    { header: { 'zh-CN': '门锁', 'en-US': 'Lock' }, value: (r) => r.lockName },
    { header: { 'zh-CN': '房间', 'en-US': 'Room' }, value: (r) => r.room },
    { header: { 'zh-CN': '序号', 'en-US': 'Seq' }, value: (r) => r.seq, width: 10 },
    { header: { 'zh-CN': '电量 (%)', 'en-US': 'Battery (%)' }, value: (r) => r.battery, width: 12 },
    { header: { 'zh-CN': '信号强度 (dBm)', 'en-US': 'RSSI (dBm)' }, value: (r) => r.rssi, width: 14 },
    { header: { 'zh-CN': '信噪比 (dB)', 'en-US': 'SNR (dB)' }, value: (r) => r.snr, width: 12 },
    { header: { 'zh-CN': '固件版本', 'en-US': 'Firmware' }, value: (r) => formatVersion(r.firmwareVersion) },
    { header: { 'zh-CN': '设备时间', 'en-US': 'Device time' }, value: (r) => r.deviceTs, width: 26, time: true },
  ],
});
