/**
 * What happens to each kind of event uplink after it is stored in the uplink log, in the same
 * transaction (so an acknowledged uplink always has its effect): one line per type, each calling the
 * service of the module that owns the table. Handlers receive only uplinks that were new
 * (redeliveries were dropped by (lock, seq)).
 */
import type { protocol } from '@iot/contract';
import type { Tx } from '../db/client.js';
import { applyCommandResults } from '../modules/command/lifecycle.js';
import { applyAlarms } from '../modules/deviceAlert/lock.js';
import { applyConfigReports, applyDoorStates } from '../modules/lockDevice/readings.js';
import { storeOpenRecords } from '../modules/lockOpenRecord/writer.js';
import { applyChunkRequests, applyStatuses } from '../modules/firmware/transfer.js';
import { commandFollowers } from '../wiring.js';
import { applyLockUserChanges } from '../modules/credential/lock-changes.js';
import { applyInventories } from '../modules/credential/inventory.js';

/** A stored event uplink, with the id of its uplinks row. */
export interface StoredUplink<T extends protocol.UplinkMessage = protocol.UplinkMessage> {
  uplinkId: number;
  lockId: number;
  tenantId: number;
  imei: string;
  message: T;
}

export type EventType = Exclude<protocol.UplinkType, 'heartbeat'>;
type UplinkHandler<K extends EventType> = (tx: Tx, uplinks: StoredUplink<Extract<protocol.UplinkMessage, { type: K }>>[]) => Promise<void>;
export type UplinkHandlers = { [K in EventType]?: UplinkHandler<K> };

/** The handlers in use: the owner module's service per type. */
export const uplinkHandlers: UplinkHandlers = {
  openRecord: storeOpenRecords,
  alarm: applyAlarms,
  doorState: applyDoorStates,
  configReport: applyConfigReports,
  commandResult: (tx, uplinks) => applyCommandResults(tx, uplinks, commandFollowers),
  otaChunkRequest: applyChunkRequests,
  otaStatus: async (tx, uplinks) => { await applyStatuses(tx, uplinks); },
  lockUserChange: applyLockUserChanges,
  inventory: applyInventories,
};
