/** 开锁日志 on `open_records` (a device log, deviceLog/factory.ts), newest first via open_records_tenant_time / _lock_time; counted up to the cap. */
import { ACCESS_REFUSAL_LABELS, type AccessRefusal, LOG_LABELS, type LogFilter, type OpenRecordRecord, type protocol } from '@iot/contract';
import { desc, eq } from 'drizzle-orm';
import { openRecords } from '../../db/schema.js';
import { iso } from '../../db/sql.js';
import { defineDeviceLog } from '../deviceLog/factory.js';

type OpenRecordFilter = LogFilter & { method?: protocol.OpenMethod; success?: boolean; refusal?: AccessRefusal };

const columns = {
  id: openRecords.id, lockId: openRecords.lockId, uplinkId: openRecords.uplinkId, method: openRecords.method,
  slot: openRecords.slot, userSlot: openRecords.userSlot, success: openRecords.success, lockTime: openRecords.lockTime,
  refusal: openRecords.refusal, operator: openRecords.operator, receivedAt: openRecords.receivedAt,
};

/** The unlock-record log: list, rows (exports, one lock's latest), routes. */
export const openRecordLog = defineDeviceLog<OpenRecordFilter, typeof columns, OpenRecordRecord>({
  table: openRecords, lockColumn: openRecords.lockId, timeColumn: openRecords.receivedAt, columns, count: 'capped',
  filters: (filter) => [
    filter.method ? eq(openRecords.method, filter.method) : undefined,
    filter.success !== undefined ? eq(openRecords.success, filter.success) : undefined,
    filter.refusal ? eq(openRecords.refusal, filter.refusal) : undefined,
  ],
  orderBy: () => [desc(openRecords.receivedAt), desc(openRecords.id)],
  keyset: () => 'time',
  sortColumns: () => ({ receivedAt: openRecords.receivedAt, lockTime: openRecords.lockTime }), idColumn: openRecords.id,
  toRecord: ({ lockTime, receivedAt, ...row }) => ({
    ...row, method: row.method as protocol.OpenMethod, refusal: row.refusal as AccessRefusal | null, lockTime: iso(lockTime), receivedAt: iso(receivedAt),
  }),
  exportName: 'unlock-records',
  exportColumns: [
    { header: { 'zh-CN': '开锁时间', 'en-US': 'Lock time' }, value: (r) => r.lockTime, width: 26, time: true },
    { header: { 'zh-CN': 'IMEI', 'en-US': 'IMEI' }, value: (r) => r.imei },
    { header: { 'zh-CN': '门锁', 'en-US': 'Lock' }, value: (r) => r.lockName },
    { header: { 'zh-CN': '房间', 'en-US': 'Room' }, value: (r) => r.room },
    { header: { 'zh-CN': '开锁方式', 'en-US': 'Method' }, value: (r) => r.method, width: 14, labels: LOG_LABELS.methods },
    { header: { 'zh-CN': '结果', 'en-US': 'Success' }, value: (r) => r.success, width: 10, labels: LOG_LABELS.outcome },
    { header: { 'zh-CN': '拒绝原因', 'en-US': 'Refused because' }, value: (r) => r.refusal, width: 18, labels: ACCESS_REFUSAL_LABELS },
    { header: { 'zh-CN': '操作人', 'en-US': 'Operator' }, value: (r) => r.operator, width: 12 },
    { header: { 'zh-CN': '凭证编号', 'en-US': 'Slot' }, value: (r) => r.slot, width: 10 },
    { header: { 'zh-CN': '用户编号', 'en-US': 'User slot' }, value: (r) => r.userSlot, width: 10 },
    { header: { 'zh-CN': '接收时间', 'en-US': 'Received at' }, value: (r) => r.receivedAt, width: 26, time: true },
  ],
});
