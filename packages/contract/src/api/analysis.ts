/**
 * 首页 / 门锁分析 and the 数据可视化 big screen: GET /iot/v1/lockDevice/analysis answers every
 * KPI, trend, distribution, top 10 and forecast from rollups (modules/analysis); GET .../analysis/feed
 * the newest alarms and unlocks for the big screen's live feed. `scope=all` (administrators only, 403
 * otherwise) aggregates every data centre, read-only.
 */
import { z } from 'zod';
import { ALERT_SEVERITIES } from './lockAlert.js';
import { ATTENTION_KINDS, type AttentionKind } from './lockFleet.js';
import { endpoint } from './endpoint.js';
import { isoTime } from './time.js';

import { OPEN_METHODS, ALERT_KINDS, type AlertKind } from '../protocol/index.js';
import { localized as label } from '../i18n.js';

/** Trend ranges the console offers, days. */
export const ANALYSIS_RANGES = [7, 30, 90] as const;

export const analysisQuery = z.object({
  /** Trend range, days (7, 30 or 90; default 7). */
  days: z.enum(['7', '30', '90']).default('7').transform(Number),
  /** `all`: every data centre (administrators only); default the request's tenant. */
  scope: z.enum(['tenant', 'all']).default('tenant'),
});

const count = z.number().int().nonnegative();
const perMethod = z.object(Object.fromEntries(OPEN_METHODS.map((m) => [m, count])) as Record<(typeof OPEN_METHODS)[number], typeof count>);
const perKind = z.object(Object.fromEntries(Object.keys(ALERT_KINDS).map((k) => [k, count])) as Record<AlertKind, typeof count>);
const series = z.array(count);

/** A lock in a top-10 or forecast list. */
const lockRef = { lockId: z.number().int(), imei: z.string(), name: z.string(), room: z.string() };

export const analysisResponse = z.object({
  /** ISO 8601: when the figures were read. */
  generatedAt: z.string(),
  scope: z.enum(['tenant', 'all']),
  /**
   * Current fleet (decommissioned locks left out). online: reachable or asleep (lock list `online=true`);
   * asleep: online NB-IoT locks between wake-ups (`liveState=asleep`); serviceExpiring: service ends within SERVICE_EXPIRING_DAYS.
   */
  fleet: z.object({ total: count, online: count, asleep: count, offline: count, serviceExpiring: count }),
  /** Locks per attention kind (ATTENTION_KINDS: the lock list's filters of the same name). */
  attention: z.object(Object.fromEntries(ATTENTION_KINDS.map((k) => [k, count])) as Record<AttentionKind, typeof count>),
  /** Active alerts by severity. */
  alarmsOpen: z.object(Object.fromEntries(ALERT_SEVERITIES.map((s) => [s, count])) as Record<(typeof ALERT_SEVERITIES)[number], typeof count>),
  /** Today (DEFAULT_TIME_ZONE): successful unlocks per method, failed attempts. */
  unlocksToday: z.object({ byMethod: perMethod, failed: count }),
  /** Commands QUEUED (waiting for their lock); failed commands and credentials out of sync: `attention`. */
  commands: z.object({ queued: count }),
  /** Per day of the range, oldest first (days: YYYY-MM-DD in DEFAULT_TIME_ZONE). */
  trends: z.object({
    days: z.array(z.string()),
    unlocks: z.object(Object.fromEntries(OPEN_METHODS.map((m) => [m, series])) as Record<(typeof OPEN_METHODS)[number], typeof series>),
    failed: series,
    alarms: z.object(Object.fromEntries(Object.keys(ALERT_KINDS).map((k) => [k, series])) as Record<AlertKind, typeof series>),
    /** Share of registered locks with at least one heartbeat that day, 0..1. */
    onlineRate: z.array(z.number().min(0).max(1)),
    newLocks: series,
  }),
  /** Per hour (0-23, DEFAULT_TIME_ZONE) today and yesterday: unlock attempts and alarms raised. */
  hourly: z.object({
    unlocksToday: series, unlocksYesterday: series, alarmsToday: series, alarmsYesterday: series,
  }),
  /** Alarms raised in the range per kind. */
  alarmsByKind: perKind,
  /** Current readings: locks per bucket. battery: 0-19, 20-39, 40-59, 60-79, 80-100 %; rssi: < -115, -115..-106, -105..-96, -95..-86, >= -85 dBm. */
  distributions: z.object({ battery: series, rssi: series }),
  /** The 10 locks with the most alarms / failed attempts in the range. */
  top: z.object({
    alarms: z.array(z.object({ ...lockRef, count })),
    failed: z.array(z.object({ ...lockRef, count })),
  }),
  /** Locks predicted to run flat within BATTERY_FORECAST_DAYS (total, and the 10 soonest). */
  batteryForecast: z.object({
    total: count,
    locks: z.array(z.object({ ...lockRef, battery: count, slopePerDay: z.number(), flatAt: z.string() })),
  }),
  /** Current state per building (empty building: ''). */
  buildings: z.array(z.object({ building: z.string(), total: count, online: count, alarms: count })),
});
export type Analysis = z.infer<typeof analysisResponse>;

export const analysisFeedQuery = z.object({
  /** Only events after this ISO 8601 time (default: the last 10 minutes). */
  after: isoTime.optional(),
  scope: z.enum(['tenant', 'all']).default('tenant'),
});

/** The newest alarms and unlock attempts, newest first (at most 50). */
export const analysisFeedResponse = z.array(z.object({
  /** `alarm:<id>` or `unlock:<id>`. */
  id: z.string(),
  type: z.enum(['alarm', 'unlock']),
  at: z.string(),
  tenantId: z.number().int(),
  imei: z.string(),
  name: z.string(),
  room: z.string(),
  /** Alarm kind, or unlock method. */
  what: z.string(),
  /** Alarm severity; for unlocks `success` or `failed`. */
  level: z.string(),
}));
export type AnalysisFeedItem = z.infer<typeof analysisFeedResponse>[number];

const analysisScopeQuery = z.object({ scope: z.enum(['tenant', 'all']).default('tenant') });

/** The big screen's air-switch panel: the data centre's (or every data centre's) load and energy today. */
export const analysisAirSwitches = z.object({
  /** Summed power of switched-on circuits now, W. */
  loadW: z.number(),
  /** Energy since midnight (DEFAULT_TIME_ZONE), kWh. */
  energyKwh: z.number(),
  switches: count, circuits: count, trippedCircuits: count,
  /** Today's load per hour (ISO hour start): average and highest W. */
  loadCurve: z.array(z.object({ hour: z.string(), avgW: z.number(), maxW: z.number() })),
});
export type AnalysisAirSwitches = z.infer<typeof analysisAirSwitches>;

/** Derived-alarm thresholds of the tenant (defaults: ANALYSIS_THRESHOLD_DEFAULTS). */
export const analysisThresholds = z.strictObject({
  forcedEntryS: z.number().int().min(1).max(3600),
  bruteForceAttempts: z.number().int().min(2).max(100),
  bruteForceLocks: z.number().int().min(2).max(100),
  bruteForceWindowS: z.number().int().min(10).max(86_400),
  silentIntervals: z.number().min(1).max(100),
  batteryCliffDays: z.number().int().min(1).max(90),
});
export type AnalysisThresholds = z.infer<typeof analysisThresholds>;

/** The analysis endpoints. */
export const analysisEndpoints = {
  analysis: endpoint({
    method: 'GET', path: '/iot/v1/lockDevice/analysis', access: 'HOME_PAGE', kind: 'token', query: analysisQuery, response: analysisResponse,
  }),
  feed: endpoint({
    method: 'GET', path: '/iot/v1/lockDevice/analysis/feed', access: 'HOME_PAGE', kind: 'token', query: analysisFeedQuery, response: analysisFeedResponse,
  }),
  airSwitches: endpoint({
    method: 'GET', path: '/iot/v1/lockDevice/analysis/airSwitches', access: 'HOME_PAGE', kind: 'token', query: analysisScopeQuery, response: analysisAirSwitches,
  }),
  thresholds: endpoint({
    method: 'GET', path: '/iot/v1/lockDevice/analysis/thresholds', access: 'LOCK_ALERT_LOG', kind: 'token', response: analysisThresholds,
  }),
  setThresholds: endpoint({
    method: 'POST', path: '/iot/v1/lockDevice/analysis/thresholds', access: 'LOCK_ALERT_LOG', kind: 'token', body: analysisThresholds, response: z.null(),
    action: { label: label('修改派生告警阈值', 'Set derived-alarm thresholds') },
  }),
};
