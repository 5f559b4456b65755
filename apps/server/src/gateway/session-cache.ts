/**
 * External broker mode: the device rows behind uplink topics, reused for `ttlMs` (the broker
 * authenticates devices; the platform only maps a topic's IMEI or serial onto its row). A disabled or
 * unknown device maps to undefined.
 */
import type { AirSwitchLookup, LockLookup } from './auth.js';
import type { GatewaySession } from './ingest.js';

/** Returns `session(id, airSwitch)`: the lock of IMEI `id`, or with `airSwitch` the air switch of serial `id`. */
export function createSessionCache(lookup: LockLookup, airSwitchLookup: AirSwitchLookup | undefined, ttlMs: number) {
  const cache = new Map<string, { device?: GatewaySession; until: number }>();
  return async function session(id: string, airSwitch = false): Promise<GatewaySession | undefined> {
    const hit = cache.get(id);
    if (hit && hit.until > Date.now()) return hit.device;
    const row = airSwitch ? await airSwitchLookup?.(id) : await lookup(id);
    const found: GatewaySession | undefined = !row?.enabled ? undefined
      : airSwitch ? { kind: 'airSwitch', airSwitchId: row.id, tenantId: row.tenantId, serial: id } : { lockId: row.id, tenantId: row.tenantId, imei: id };
    if (cache.size > 100_000) cache.clear();
    cache.set(id, { device: found, until: Date.now() + ttlMs });
    return found;
  };
}
