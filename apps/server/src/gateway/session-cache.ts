/**
 * External broker mode: the device rows behind uplink topics, reused for `ttlMs` (the broker
 * authenticates devices; the platform only maps a topic's device name, IMEI or serial, onto its row).
 * A disabled or unknown device, or one of a kind without a lookup, maps to undefined.
 */
import type { DeviceLookups } from './auth.js';
import type { GatewayKind, GatewaySession } from './device-kinds.js';

/** Returns `session(kind, key)`: the session of the device of `kind` named `key`. Rejects when the database fails. */
export function createSessionCache(lookups: DeviceLookups, ttlMs: number) {
  const cache = new Map<string, { device?: GatewaySession; until: number }>();
  return async function session(kind: GatewayKind, key: string): Promise<GatewaySession | undefined> {
    const cacheKey = `${kind.kind}:${key}`;
    const hit = cache.get(cacheKey);
    if (hit && hit.until > Date.now()) return hit.device;
    const row = await lookups[kind.kind]?.(key);
    const found = row?.enabled ? kind.session(row) : undefined;
    if (cache.size > 100_000) cache.clear();
    cache.set(cacheKey, { device: found, until: Date.now() + ttlMs });
    return found;
  };
}
