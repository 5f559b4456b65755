/**
 * What happens to each kind of event uplink after it is stored in the uplink log, in the same
 * transaction (so an acknowledged uplink always has its effect): one handler per type, each in its own
 * module. Handlers receive only uplinks that were new (redeliveries were dropped by (lock, seq)).
 */
import type { protocol } from '@iot/contract';
import type { Tx } from '../db/client.js';
import { applyAlarms } from './handlers/alarm.js';
import { applyConfigReports, applyDoorStates } from './handlers/lockState.js';
import { storeOpenRecords } from './handlers/openRecord.js';
import { applyCommandResults } from '../modules/command/lifecycle.js';

/** A stored event uplink, with the id of its uplinks row. */
export interface StoredUplink<T extends protocol.UplinkMessage = protocol.UplinkMessage> {
  uplinkId: number;
  lockId: number;
  tenantId: number;
  imei: string;
  message: T;
}

export type EventType = Exclude<protocol.UplinkType, 'heartbeat'>;
export type UplinkHandler<K extends EventType> = (tx: Tx, uplinks: StoredUplink<Extract<protocol.UplinkMessage, { type: K }>>[]) => Promise<void>;
export type UplinkHandlers = { [K in EventType]?: UplinkHandler<K> };

/** The handlers in use; each capability registers its own line. */
export const uplinkHandlers: UplinkHandlers = {
  openRecord: storeOpenRecords,
  alarm: applyAlarms,
  doorState: applyDoorStates,
  configReport: applyConfigReports,
  commandResult: applyCommandResults,
};
