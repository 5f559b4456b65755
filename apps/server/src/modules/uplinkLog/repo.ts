/**
 * 上报日志 on the locks' rows of `uplinks` (a device log, deviceLog/factory.ts), newest first via
 * uplinks_tenant_time / uplinks_lock_time; counted up to the cap. Every query says `device_kind = 'lock'`
 * as a literal, so PostgreSQL reads the lock subtree only, with a generic plan too.
 */
import { LOG_LABELS, type LogFilter, type UplinkLogRecord } from '@iot/contract';
import { desc, eq, sql } from 'drizzle-orm';
import { uplinks } from '../../db/schema.js';
import { iso } from '../../db/sql.js';
import { defineDeviceLog } from '../deviceLog/factory.js';

type UplinkLogFilter = LogFilter & { type?: string };

const LOCK_ROWS = sql`${uplinks.deviceKind} = 'lock'`;

const columns = {
  id: uplinks.id, lockId: uplinks.lockId, seq: uplinks.seq, msgId: uplinks.msgId, type: uplinks.type,
  data: uplinks.data, deviceTs: uplinks.deviceTs, receivedAt: uplinks.receivedAt,
};

/** The uplink log: list, rows, routes. */
export const uplinkLog = defineDeviceLog<UplinkLogFilter, typeof columns, UplinkLogRecord>({
  table: uplinks, lockColumn: uplinks.lockId, timeColumn: uplinks.receivedAt, columns, count: 'capped',
  filters: (filter) => [LOCK_ROWS, filter.type ? eq(uplinks.type, filter.type) : undefined],
  orderBy: () => [desc(uplinks.receivedAt), desc(uplinks.id)],
  keyset: () => 'time',
  sortColumns: () => ({ receivedAt: uplinks.receivedAt }), idColumn: uplinks.id,
  toRecord: ({ deviceTs, receivedAt, data, ...row }) => ({
    ...row, lockId: row.lockId as number, msgId: row.msgId ?? '', data: (data ?? {}) as Record<string, unknown>, deviceTs: iso(deviceTs), receivedAt: iso(receivedAt),
  }),
  exportName: 'uplink-log',
  exportColumns: [
    { header: { 'zh-CN': '接收时间', 'en-US': 'Received at' }, value: (r) => r.receivedAt, width: 26, time: true },
    { header: { 'zh-CN': 'IMEI', 'en-US': 'IMEI' }, value: (r) => r.imei },
    { header: { 'zh-CN': '门锁', 'en-US': 'Lock' }, value: (r) => r.lockName },
    { header: { 'zh-CN': '房间', 'en-US': 'Room' }, value: (r) => r.room },
    { header: { 'zh-CN': '类型', 'en-US': 'Type' }, value: (r) => r.type, labels: LOG_LABELS.uplinkTypes },
    { header: { 'zh-CN': '序号', 'en-US': 'Seq' }, value: (r) => r.seq, width: 10 },
    { header: { 'zh-CN': '消息 ID', 'en-US': 'Message id' }, value: (r) => r.msgId, width: 24 },
    { header: { 'zh-CN': '设备时间', 'en-US': 'Device time' }, value: (r) => r.deviceTs, width: 26, time: true },
    { header: { 'zh-CN': '数据', 'en-US': 'Data' }, value: (r) => JSON.stringify(r.data), width: 60 },
  ],
});
