/**
 * Fixtures of the access-control tests: an outbox environment with three always-online
 * simulated locks attached to the app's simulated keypad, API helpers, and local times of the coming
 * week in the locks' zone (China Standard Time).
 */
import { type Fleet, startFleet } from '@iot/simulator';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../src/db/rows.js';
import { attachSimulator } from '../src/demo/keypad.js';
import { call, dataOf, signIn } from './helper.js';
import { type OutboxEnv, startOutboxEnv, waitFor } from './outbox-support.js';

type SyncTable = 'access_schedules' | 'lock_holiday_schedules' | 'lock_users' | 'credentials';

export interface AccessEnv {
  env: OutboxEnv;
  fleet: Fleet;
  token: string;
  lockId(index: number): number;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the data it expects (as helper.ts dataOf)
  post(url: string, payload: object): Promise<any>;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  get(url: string): Promise<any>;
  /** The raw response (errors). */
  send(method: 'GET' | 'POST', url: string, payload?: object, language?: string): ReturnType<typeof call>;
  /** Waits until the row `id` of `table` has sync state `state` (undefined: gone). */
  waitSync(table: SyncTable, id: number, state: string | undefined, timeoutMs?: number): Promise<unknown>;
  close(): Promise<void>;
}

/** Starts the environment: locks 0..2 of tenant 100 always online and simulated in-process. */
export async function startAccessEnv(): Promise<AccessEnv> {
  const env = await startOutboxEnv({ alwaysOnline: [0, 1, 2] });
  const token = await signIn(env.ctx.app);
  const fleet = await startFleet({ brokerUrl: env.url, devices: env.devices.slice(0, 3) as never, heartbeatS: 60, firstHeartbeatWithinMs: 10, behaviour: { flakyRatio: 0 } });
  attachSimulator(env.ctx.app, fleet);
  await waitFor(() => fleet.devices.every((d) => d.acked > 0), (ok) => ok);
  const send: AccessEnv['send'] = (method, url, payload, language) =>
    call(env.ctx.app, token, { method, url, ...(payload ? { payload } : {}), ...(language ? { headers: { 'accept-language': language } } : {}) });
  return {
    env, fleet, token, send,
    lockId: (index) => env.devices[index]?.lockId as number,
    post: async (url, payload) => dataOf(await send('POST', url, payload)),
    get: async (url) => dataOf(await send('GET', url)),
    waitSync: (table, id, state, timeoutMs = 10_000) => waitFor(async () => {
      const rows = rowsOf<{ sync_state: string }>(await env.ctx.database.system.execute(sql`select sync_state from ${sql.raw(table)} where id = ${id}`));
      return rows[0]?.sync_state;
    }, (s) => s === state, timeoutMs),
    async close() {
      await fleet.stop();
      await env.close();
    },
  };
}

/** YYYY-MM-DD of the next local Monday (at least a day ahead) plus `days`. */
export function comingDate(days = 0): string {
  const local = new Date(Date.now() + 8 * 3_600_000);
  const ahead = ((8 - local.getUTCDay()) % 7) || 7;
  return new Date(local.getTime() + (ahead + days) * 86_400_000).toISOString().slice(0, 10);
}

/** ISO time of `hhmm` local on comingDate(days). */
export const localAt = (days: number, hhmm: string) => `${comingDate(days)}T${hhmm}:00+08:00`;
