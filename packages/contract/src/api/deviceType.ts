/**
 * 设备类型 equipmentType: device types are data, one row per model code and data centre.
 * The ZIGUANG models of lockModels.ts (LOCK_MODELS) are the seed rows every data centre starts with;
 * credential checks and the simulated locks read a lock's type by its model code (`locks.model`).
 * A type some device uses cannot be deleted, and its model code cannot change (409 naming the count).
 */
import { z } from 'zod';
import { DEVICE_KINDS } from '../constants.js';
import { CREDENTIAL_RULES } from '../access/matter.js';
import { DEFAULT_ACCESS_CAPACITY } from '../lockModels.js';
import { OPEN_METHODS } from '../protocol/index.js';
import { electricalRatings, heartbeatRange } from '../ratings.js';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery } from './envelope.js';
import { DIGITS_ORDER, ELECTRICAL_KIND, HEARTBEAT_IN_RANGE, int4Id, keyword, METHODS_UNIQUE, text } from './input.js';
import { BACKUP_CODE_POOL_DEFAULT, BACKUP_CODE_POOL_MAX } from './stayBackupCode.js';
import { localized as label } from '../i18n.js';

/** Device kinds one registry serves (air switches arrive with their own issue). */
/** `nbiotSleeping`: NB-IoT power saving (PSM), reachable only after an uplink; `alwaysOnline`: stays attached (4G LTE Cat.1, Wi-Fi, mains). */
export const CONNECTIVITIES = ['nbiotSleeping', 'alwaysOnline'] as const;
export type Connectivity = (typeof CONNECTIVITIES)[number];


const slots = z.number().int().min(0).max(10_000);

/** Heartbeat range of a type entered without one (the protocol's own bounds), s. */
export const DEFAULT_HEARTBEAT_RANGE_S = { min: 10, max: 86_400 } as const;

/**
 * Matter DoorLock attributes NumberOfWeekDaySchedulesSupportedPerUser,
 * NumberOfYearDaySchedulesSupportedPerUser, NumberOfHolidaySchedulesSupported, CredentialRulesSupport
 * (defaults: lockModels.ts DEFAULT_ACCESS_CAPACITY).
 */
const accessCapacityFields = {
  weekDaySchedulesPerUser: z.number().int().min(0).max(32).default(DEFAULT_ACCESS_CAPACITY.weekDaySchedulesPerUser),
  yearDaySchedulesPerUser: z.number().int().min(0).max(32).default(DEFAULT_ACCESS_CAPACITY.yearDaySchedulesPerUser),
  holidaySchedules: z.number().int().min(0).max(64).default(DEFAULT_ACCESS_CAPACITY.holidaySchedules),
  credentialRulesSupport: z.array(z.enum(CREDENTIAL_RULES)).min(1).max(CREDENTIAL_RULES.length)
    .refine((rules) => new Set(rules).size === rules.length && rules.includes('single'), { message: 'single, optionally dual, each once' })
    .default([...DEFAULT_ACCESS_CAPACITY.credentialRulesSupport]),
};

const deviceTypeFields = z.strictObject({
  kind: z.enum(DEVICE_KINDS),
  /** Model code, e.g. ZG-NB100: letters, digits, `.`, `_`, `-`. */
  model: text().trim().min(1).max(32).regex(/^[A-Za-z0-9._-]+$/),
  connectivity: z.enum(CONNECTIVITIES),
  /** Default heartbeat interval, s; within heartbeatRangeS. */
  heartbeatIntervalS: z.number().int().min(10).max(86_400),
  /** Heartbeat intervals the device accepts (configuration pushes are checked against it), s. */
  heartbeatRangeS: heartbeatRange.default({ ...DEFAULT_HEARTBEAT_RANGE_S }),
  /** Slots per credential table (0 for a kind without them). */
  capacity: z.strictObject({ users: slots, passwords: slots, cards: slots, fingerprints: slots }),
  /** Password length in digits, inclusive. */
  passwordDigits: z.strictObject({ min: z.number().int().min(4).max(16), max: z.number().int().min(4).max(16) })
    .refine((digits) => digits.min <= digits.max, { error: DIGITS_ORDER, path: ['max'] }),
  /** Longest validity window of a lock user or temporary password, days. */
  maxValidityDays: z.number().int().min(1).max(36_500),
  unlockMethods: z.array(z.enum(OPEN_METHODS)).max(OPEN_METHODS.length)
    .refine((methods) => new Set(methods).size === methods.length, { error: METHODS_UNIQUE }),
  firmwareFamily: text().trim().max(32),
  /** Ratings of an air switch (required for kind airSwitch, null for a lock): thresholds are checked against them. */
  electrical: electricalRatings.nullable().default(null),
  ...accessCapacityFields,
  /** Backup codes each lock of the type keeps installed (docs/stays.md "Backup codes"); 0: none. */
  backupCodePool: z.number().int().min(0).max(BACKUP_CODE_POOL_MAX).default(BACKUP_CODE_POOL_DEFAULT),
});
type Fields = z.output<typeof deviceTypeFields>;
const heartbeatInRange: [(type: Fields) => boolean, { error: string; path: string[] }] = [
  (type) => type.heartbeatIntervalS >= type.heartbeatRangeS.min && type.heartbeatIntervalS <= type.heartbeatRangeS.max,
  { error: HEARTBEAT_IN_RANGE, path: ['heartbeatIntervalS'] }];
const electricalByKind: [(type: Fields) => boolean, { error: string; path: string[] }] = [
  (type) => (type.kind === 'airSwitch') === (type.electrical !== null), { error: ELECTRICAL_KIND, path: ['electrical'] }];

/** A device type as entered on the 设备类型 page (vendor is the ZIGUANG constant); its default heartbeat within its range, electrical ratings exactly for air switches. */
export const deviceTypeInput = deviceTypeFields.refine(...heartbeatInRange).refine(...electricalByKind);
export type DeviceTypeInput = z.infer<typeof deviceTypeInput>;

export const deviceTypeRecord = z.object({
  id: z.number().int(),
  kind: z.enum(DEVICE_KINDS),
  model: z.string(),
  vendor: z.string(),
  connectivity: z.enum(CONNECTIVITIES),
  heartbeatIntervalS: z.number().int(),
  capacity: z.object({ users: z.number().int(), passwords: z.number().int(), cards: z.number().int(), fingerprints: z.number().int() }),
  passwordDigits: z.object({ min: z.number().int(), max: z.number().int() }),
  maxValidityDays: z.number().int(),
  unlockMethods: z.array(z.string()),
  firmwareFamily: z.string(),
  heartbeatRangeS: z.object({ min: z.number().int(), max: z.number().int() }),
  electrical: z.object({
    circuits: z.number().int(), ratedCurrentA: z.number().int(), ratedVoltageV: z.number().int(),
    leakageMa: z.object({ min: z.number().int(), max: z.number().int() }),
  }).nullable(),
  weekDaySchedulesPerUser: z.number().int(),
  yearDaySchedulesPerUser: z.number().int(),
  holidaySchedules: z.number().int(),
  credentialRulesSupport: z.array(z.enum(CREDENTIAL_RULES)),
  backupCodePool: z.number().int(),
  /** Devices of the data centre registered with this model (decommissioned ones included). */
  deviceCount: z.number().int(),
  createdAt: z.string(),
});
export type DeviceTypeRecord = z.infer<typeof deviceTypeRecord>;

export const deviceTypeListQuery = pageQuery.extend({
  /** Model code or firmware family contains it. */
  keyword: keyword().optional(),
  kind: z.enum(DEVICE_KINDS).optional(),
});

/** A type as a select shows it. */
export const deviceTypeOption = z.object({ id: z.number().int(), kind: z.enum(DEVICE_KINDS), model: z.string(), connectivity: z.enum(CONNECTIVITIES) });
export type DeviceTypeOption = z.infer<typeof deviceTypeOption>;


export const deviceTypeEndpoints = {
  list: endpoint({
    method: 'GET', path: '/iot/v1/equipmentType/list', access: 'LOOK_INFO', kind: 'token',
    query: deviceTypeListQuery, response: pageOf(deviceTypeRecord),
  }),
  /** Every type of the data centre, for selects (registering a lock, filters). */
  options: endpoint({
    method: 'GET', path: '/iot/v1/equipmentType/options', access: 'LOOK_INFO', kind: 'token', response: z.array(deviceTypeOption),
  }),
  add: endpoint({
    method: 'POST', path: '/iot/v1/equipmentType/add', access: 'DEVICE_TYPE_EDIT', kind: 'token',
    body: deviceTypeInput, response: z.object({ id: z.number().int() }),
    action: { label: label('新增设备类型', 'Add device type'), target: ['model'] },
  }),
  update: endpoint({
    method: 'POST', path: '/iot/v1/equipmentType/update', access: 'DEVICE_TYPE_EDIT', kind: 'token',
    body: deviceTypeFields.extend({ id: int4Id }).refine(...heartbeatInRange).refine(...electricalByKind), response: z.null(),
    action: { label: label('修改设备类型', 'Edit device type'), target: ['model', 'id'], entity: 'deviceType' },
  }),
  delete: endpoint({
    method: 'POST', path: '/iot/v1/equipmentType/delete', access: 'DEVICE_TYPE_EDIT', kind: 'token',
    body: z.strictObject({ id: int4Id }), response: z.null(),
    action: { label: label('删除设备类型', 'Delete device type'), target: ['id'], entity: 'deviceType' },
  }),
};
