/**
 * The KPI cards of 首页 / 门锁分析 built from the analysis: each counts a list and links to it,
 * filtered (the lock list's own filters, ServerTable query parameters of the log pages).
 */
import { type Analysis, protocol } from '@iot/contract';

export interface Kpi {
  key: string;
  /** Also the label key (homepage namespace `kpi.<key>`). */
  value: number;
  to: string;
  color?: string;
}

const q = (path: string, params: Record<string, string>) => `${path}?${new URLSearchParams(params)}`;
const SEVERITY_COLORS = { critical: '#cf1322', major: '#d4380d', minor: '#d48806', warning: '#1677ff' } as const;

/** Fleet and attention KPIs (门锁). */
export function fleetKpis(data: Analysis): Kpi[] {
  const { fleet, attention } = data;
  return [
    { key: 'total', value: fleet.total, to: '/lockInfo', color: '#1668dc' },
    { key: 'online', value: fleet.online, to: q('/lockInfo', { online: 'true' }), color: '#389e0d' },
    { key: 'asleep', value: fleet.asleep, to: q('/lockInfo', { liveState: 'asleep' }), color: '#13c2c2' },
    { key: 'offline', value: fleet.offline, to: q('/lockInfo', { online: 'false' }), color: '#8c8c8c' },
    { key: 'lowBattery', value: attention.lowBattery, to: q('/lockInfo', { lowBattery: 'true' }), color: '#f5222d' },
    { key: 'weakSignal', value: attention.weakSignal, to: q('/lockInfo', { weakSignal: 'true' }), color: '#fa8c16' },
    { key: 'offlineLong', value: attention.offlineLong, to: q('/lockInfo', { offlineLong: 'true' }), color: '#595959' },
    { key: 'serviceExpiring', value: fleet.serviceExpiring, to: q('/lockInfo', { serviceExpiring: 'true' }), color: '#722ed1' },
  ];
}

/** What needs doing (待处理): open alarms by severity, queued commands, failed commands, drift. */
export function workKpis(data: Analysis): Kpi[] {
  return [
    ...(['critical', 'major', 'minor', 'warning'] as const).map((severity) => ({
      key: `alarm-${severity}`, value: data.alarmsOpen[severity],
      to: q('/lockAlert', { state: 'active', severity }), color: SEVERITY_COLORS[severity],
    })),
    { key: 'queued', value: data.commands.queued, to: q('/commandDownLog', { state: 'QUEUED' }) },
    { key: 'failedCommands', value: data.attention.failedCommands, to: q('/lockInfo', { failedCommands: 'true' }), color: '#cf1322' },
    { key: 'credentialDrift', value: data.attention.credentialDrift, to: q('/lockInfo', { credentialDrift: 'true' }) },
    { key: 'configDrift', value: data.attention.configDrift, to: q('/lockInfo', { configDrift: 'true' }) },
  ];
}

/** Today's unlocks per method and failed attempts (开锁日志 from the start of today). */
export function unlockKpis(data: Analysis, todayStart: string): Kpi[] {
  return [
    ...protocol.OPEN_METHODS.map((method) => ({
      key: `unlock-${method}`, value: data.unlocksToday.byMethod[method],
      to: q('/lockOpenRecordLog', { method, success: 'true', startTime: todayStart }), color: '#389e0d',
    })),
    { key: 'failed', value: data.unlocksToday.failed, to: q('/lockOpenRecordLog', { success: 'false', startTime: todayStart }), color: '#cf1322' },
  ];
}
