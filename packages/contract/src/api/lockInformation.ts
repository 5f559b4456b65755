/**
 * 设备信息 (/Information?imei=): everything about one lock in ONE read, so the page costs one
 * request and needs only LOOK_INFO (as the lock journal does): the registry record, its type and
 * groups, presence, reported vs desired configuration, credential slots per table with their drift,
 * its command queue and its latest alarms, unlock records and uplinks. Battery / RSSI / SNR series come
 * from the heartbeat log's own endpoints.
 */
import { z } from 'zod';
import { COMMAND_STATES, lockConfig } from '../protocol/index.js';
import { commandRecord } from './command.js';
import { DEVICE_KINDS } from '../constants.js';
import { CONNECTIVITIES } from './deviceType.js';
import { endpoint } from './endpoint.js';
import { text } from './input.js';
import { lockRecord } from './lock.js';
import { alertRecord } from './lockAlert.js';
import { lockGroupOption } from './lockGroup.js';
import { openRecordRecord } from './lockOpenRecord.js';
import { uplinkLogRecord } from './uplinkLog.js';

/** How many of the latest alarms, unlock records and uplinks the page shows. */
export const INFORMATION_RECENT = 5;

export const lockInformationQuery = z.object({ imei: text().trim().regex(/^\d{15}$/) });

/** One credential table on the lock: slots of the model, rows held, and rows not in sync with the lock. */
export const credentialTableUse = z.object({
  table: z.enum(['users', 'passwords', 'cards', 'fingerprints']),
  capacity: z.number().int(),
  /** Rows held on the platform (any sync state). */
  used: z.number().int(),
  /** Cloud/lock drift: rows being added or deleted (command under way). */
  syncing: z.number().int(),
  /** Cloud/lock drift: rows whose add or delete failed (the lock and the platform disagree). */
  failed: z.number().int(),
});

export const lockInformation = z.object({
  lock: lockRecord,
  /** The lock's device type, null when the data centre has none of its model. */
  type: z.object({
    kind: z.enum(DEVICE_KINDS), connectivity: z.enum(CONNECTIVITIES), heartbeatIntervalS: z.number().int(),
    firmwareFamily: z.string(), unlockMethods: z.array(z.string()),
  }).nullable(),
  groups: z.array(lockGroupOption),
  presence: z.object({
    alwaysOnline: z.boolean(),
    /** Within the wake window after its last uplink (or always online). */
    awake: z.boolean(),
    lastUplinkAt: z.string().nullable(),
    /** Last heartbeat + heartbeat interval (ISO 8601 UTC), null before any uplink. */
    nextWakeAt: z.string().nullable(),
    /** 'open' | 'closed' as last reported, null before any report. */
    doorState: z.string().nullable(),
    locked: z.boolean().nullable(),
  }),
  config: z.object({
    /** What the lock last reported (configReport), null before any. */
    reported: lockConfig.nullable(),
    /** Reported overlaid with every configPush not final yet (oldest first): what the lock will hold. */
    desired: lockConfig.nullable(),
    /** The newest configPush command, whatever its state. */
    lastPush: z.object({ id: z.number().int(), state: z.enum(COMMAND_STATES), createdAt: z.string() }).nullable(),
  }),
  credentials: z.array(credentialTableUse),
  /** Commands not final (oldest first), then up to 10 recent final ones (newest first). */
  commands: z.array(commandRecord),
  alarms: z.array(alertRecord),
  openRecords: z.array(openRecordRecord),
  uplinks: z.array(uplinkLogRecord),
});
export type LockInformation = z.infer<typeof lockInformation>;

export const lockInformationEndpoints = {
  information: endpoint({
    method: 'GET', path: '/iot/v1/lockDevice/information', access: 'LOOK_INFO', kind: 'token', query: lockInformationQuery, response: lockInformation,
  }),
};
