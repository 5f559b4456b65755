/** Columns of the lock list's CSV / Excel export (门锁信息), in both languages. */
import { formatVersion, type LockRecord, type LocalizedText, localized as h } from '@iot/contract';
import type { ExportColumn } from '../../http/export.js';


const STATE_LABELS: Record<string, LocalizedText> = {
  active: h('启用', 'Active'), disabled: h('停用', 'Disabled'), decommissioned: h('已退役', 'Decommissioned'),
};
const ONLINE_LABELS: Record<string, LocalizedText> = { true: h('在线', 'Online'), false: h('离线', 'Offline') };

export const LOCK_EXPORT_COLUMNS: readonly ExportColumn<LockRecord>[] = [
  { header: h('IMEI', 'IMEI'), value: (r) => r.imei, width: 18 },
  { header: h('名称', 'Name'), value: (r) => r.name, width: 22 },
  { header: h('楼栋', 'Building'), value: (r) => r.location.building },
  { header: h('楼层', 'Floor'), value: (r) => r.location.floor, width: 10 },
  { header: h('房间', 'Room'), value: (r) => r.location.room, width: 10 },
  { header: h('型号', 'Model'), value: (r) => r.model, width: 12 },
  { header: h('固件版本', 'Firmware'), value: (r) => formatVersion(r.firmwareVersion), width: 12 },
  { header: h('状态', 'State'), value: (r) => r.state, labels: STATE_LABELS, width: 10 },
  { header: h('在线', 'Online'), value: (r) => r.online, labels: ONLINE_LABELS, width: 10 },
  { header: h('电量 (%)', 'Battery (%)'), value: (r) => r.battery, width: 12 },
  { header: h('信号强度 (dBm)', 'RSSI (dBm)'), value: (r) => r.rssi, width: 14 },
  { header: h('信噪比 (dB)', 'SNR (dB)'), value: (r) => r.snr, width: 12 },
  { header: h('最后心跳', 'Last heartbeat'), value: (r) => r.lastHeartbeatAt, time: true, width: 26 },
  { header: h('ICCID', 'ICCID'), value: (r) => r.iccid, width: 22 },
  { header: h('备注', 'Note'), value: (r) => r.note, width: 24 },
  { header: h('登记时间', 'Registered at'), value: (r) => r.createdAt, time: true, width: 26 },
];
