/**
 * Which devices a live event is about. Apart from the stream's schemas (api/live.ts), in a module
 * without zod: the console's live refresh rules call it on every page once the stream is up.
 */

/** The locks and air switches an event (or a merged message) is about; empty lists when none. */
export function touchedDevices(data: object): { lockIds: number[]; airSwitchIds: number[] } {
  const value = data as { lockId?: number; lockIds?: number[]; airSwitchId?: number; airSwitchIds?: number[]; deviceKind?: string; deviceId?: number };
  const lockIds = [...(value.lockIds ?? [])];
  const airSwitchIds = [...(value.airSwitchIds ?? [])];
  if (value.lockId !== undefined) lockIds.push(value.lockId);
  if (value.airSwitchId !== undefined) airSwitchIds.push(value.airSwitchId);
  if (value.deviceId !== undefined) (value.deviceKind === 'airSwitch' ? airSwitchIds : lockIds).push(value.deviceId);
  return { lockIds, airSwitchIds };
}
