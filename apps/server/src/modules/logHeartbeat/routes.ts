/** 心跳日志 routes: the heartbeat log, its export, and one lock's battery / signal series. */
import { heartbeatLogEndpoints, type HeartbeatLogRecord, LOG_EXPORT_MAX } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { type ExportColumn, sendExport } from '../deviceLog/export.js';
import { exportHeartbeats, listHeartbeats } from './repo.js';
import { heartbeatSeries } from './series.js';

const COLUMNS: ExportColumn<HeartbeatLogRecord>[] = [
  { header: { 'zh-CN': '接收时间', 'en-US': 'Received at' }, value: (r) => r.receivedAt, width: 26 },
  { header: { 'zh-CN': 'IMEI', 'en-US': 'IMEI' }, value: (r) => r.imei },
  { header: { 'zh-CN': '门锁', 'en-US': 'Lock' }, value: (r) => r.lockName },
  { header: { 'zh-CN': '房间', 'en-US': 'Room' }, value: (r) => r.room },
  { header: { 'zh-CN': '序号', 'en-US': 'Seq' }, value: (r) => r.seq, width: 10 },
  { header: { 'zh-CN': '电量 (%)', 'en-US': 'Battery (%)' }, value: (r) => r.battery, width: 12 },
  { header: { 'zh-CN': '信号强度 (dBm)', 'en-US': 'RSSI (dBm)' }, value: (r) => r.rssi, width: 14 },
  { header: { 'zh-CN': '信噪比 (dB)', 'en-US': 'SNR (dB)' }, value: (r) => r.snr, width: 12 },
  { header: { 'zh-CN': '固件版本', 'en-US': 'Firmware' }, value: (r) => r.firmwareVersion },
  { header: { 'zh-CN': '设备时间', 'en-US': 'Device time' }, value: (r) => r.deviceTs, width: 26 },
];

/** Registers the heartbeat-log routes. */
export async function logHeartbeatRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, heartbeatLogEndpoints.list, ({ query, inTenant }) => {
    const { current, size, ...filter } = query;
    return inTenant((tx) => listHeartbeats(tx, filter, current, size));
  });
  registerEndpoint(app, heartbeatLogEndpoints.export, async ({ query, inTenant, request, reply }) => {
    const { format, ...filter } = query;
    const rows = await inTenant((tx) => exportHeartbeats(tx, filter, LOG_EXPORT_MAX + 1));
    return sendExport({ request, reply, format, name: 'heartbeat-log', columns: COLUMNS, rows });
  }, { raw: true });
  registerEndpoint(app, heartbeatLogEndpoints.batteryList, async ({ query, inTenant }) => {
    const { points, ...series } = await inTenant((tx) => heartbeatSeries(tx, query));
    return { ...series, points: points.map(({ time, battery }) => ({ time, battery })) };
  });
  registerEndpoint(app, heartbeatLogEndpoints.rssiList, async ({ query, inTenant }) => {
    const { points, ...series } = await inTenant((tx) => heartbeatSeries(tx, query));
    return { ...series, points: points.map(({ time, rssi, snr }) => ({ time, rssi, snr })) };
  });
}
