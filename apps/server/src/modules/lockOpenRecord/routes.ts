/** 开锁日志 routes: the unlock-record log, its export, and one lock's latest records. */
import { LOG_EXPORT_MAX, openRecordEndpoints, type OpenRecordRecord } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { type ExportColumn, sendExport } from '../deviceLog/export.js';
import { requireLock } from '../deviceLog/filter.js';
import { latestOpenRecords, listOpenRecords } from './repo.js';

const COLUMNS: ExportColumn<OpenRecordRecord>[] = [
  { header: { 'zh-CN': '开锁时间', 'en-US': 'Lock time' }, value: (r) => r.lockTime, width: 26 },
  { header: { 'zh-CN': 'IMEI', 'en-US': 'IMEI' }, value: (r) => r.imei },
  { header: { 'zh-CN': '门锁', 'en-US': 'Lock' }, value: (r) => r.lockName },
  { header: { 'zh-CN': '房间', 'en-US': 'Room' }, value: (r) => r.room },
  { header: { 'zh-CN': '开锁方式', 'en-US': 'Method' }, value: (r) => r.method, width: 14 },
  { header: { 'zh-CN': '结果', 'en-US': 'Success' }, value: (r) => r.success, width: 10 },
  { header: { 'zh-CN': '凭证编号', 'en-US': 'Slot' }, value: (r) => r.slot, width: 10 },
  { header: { 'zh-CN': '用户编号', 'en-US': 'User slot' }, value: (r) => r.userSlot, width: 10 },
  { header: { 'zh-CN': '接收时间', 'en-US': 'Received at' }, value: (r) => r.receivedAt, width: 26 },
];

/** Registers the unlock-record routes. */
export async function lockOpenRecordRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, openRecordEndpoints.list, ({ query, inTenant }) => {
    const { current, size, ...filter } = query;
    return inTenant((tx) => listOpenRecords(tx, filter, current, size));
  });
  registerEndpoint(app, openRecordEndpoints.export, async ({ query, inTenant, request, reply }) => {
    const { format, ...filter } = query;
    const rows = await inTenant((tx) => latestOpenRecords(tx, filter, LOG_EXPORT_MAX + 1));
    return sendExport({ request, reply, format, name: 'unlock-records', columns: COLUMNS, rows });
  }, { raw: true });
  registerEndpoint(app, openRecordEndpoints.latest, ({ query, inTenant }) => inTenant(async (tx) => {
    const lock = await requireLock(tx, query);
    return latestOpenRecords(tx, { lockId: lock.id }, query.limit);
  }));
}
