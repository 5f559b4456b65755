/** 上报日志 routes: the uplink log page by page, and its CSV / Excel export. */
import { LOG_EXPORT_MAX, uplinkLogEndpoints, type UplinkLogRecord } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { type ExportColumn, sendExport } from '../deviceLog/export.js';
import { exportUplinks, listUplinks } from './repo.js';

const COLUMNS: ExportColumn<UplinkLogRecord>[] = [
  { header: { 'zh-CN': '接收时间', 'en-US': 'Received at' }, value: (r) => r.receivedAt, width: 26 },
  { header: { 'zh-CN': 'IMEI', 'en-US': 'IMEI' }, value: (r) => r.imei },
  { header: { 'zh-CN': '门锁', 'en-US': 'Lock' }, value: (r) => r.lockName },
  { header: { 'zh-CN': '房间', 'en-US': 'Room' }, value: (r) => r.room },
  { header: { 'zh-CN': '类型', 'en-US': 'Type' }, value: (r) => r.type },
  { header: { 'zh-CN': '序号', 'en-US': 'Seq' }, value: (r) => r.seq, width: 10 },
  { header: { 'zh-CN': '消息 ID', 'en-US': 'Message id' }, value: (r) => r.msgId, width: 24 },
  { header: { 'zh-CN': '设备时间', 'en-US': 'Device time' }, value: (r) => r.deviceTs, width: 26 },
  { header: { 'zh-CN': '数据', 'en-US': 'Data' }, value: (r) => JSON.stringify(r.data), width: 60 },
];

/** Registers the uplink-log routes. */
export async function logUpCommandRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, uplinkLogEndpoints.list, ({ query, inTenant }) => {
    const { current, size, ...filter } = query;
    return inTenant((tx) => listUplinks(tx, filter, current, size));
  });
  registerEndpoint(app, uplinkLogEndpoints.export, async ({ query, inTenant, request, reply }) => {
    const { format, ...filter } = query;
    const rows = await inTenant((tx) => exportUplinks(tx, filter, LOG_EXPORT_MAX + 1));
    return sendExport({ request, reply, format, name: 'uplink-log', columns: COLUMNS, rows });
  }, { raw: true });
}
