/**
 * The command phase of bench/connections.ts: `perMinute` clockSync commands a minute to random
 * generated locks, queued as the console queues them (modules/command/outbox.ts enqueueCommand: a
 * QUEUED row and the `command.queued` event that wakes the server's dispatcher over NOTIFY), spread
 * evenly over each second, and the commands' final states read back.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { rows } from '../../apps/server/integration/devices.js';
import { createSecretBox } from '../../apps/server/src/crypto/secret-box.js';
import type { Database } from '../../apps/server/src/db/client.js';
import { ApiError } from '../../apps/server/src/http/api-error.js';
import { enqueueCommand } from '../../apps/server/src/modules/command/outbox.js';

/**
 * Queues commands for `seconds` s at `perMinute` a minute; resolves with how many were queued.
 * Rejects when the database fails (a refusal such as QUEUE_FULL is counted in `refused`, not thrown).
 */
export async function queueCommands(database: Database, perMinute: number, seconds: number): Promise<{ queued: number; refused: number }> {
  // clockSync carries no secret field, so the box's key (the server's own one is elsewhere) never matters.
  const box = createSecretBox(randomBytes(32));
  const ids = rows<{ id: number }>(await database.system.execute(sql`select id from locks where imei like '868%' order by random() limit ${Math.ceil((perMinute * seconds) / 60)}`)).map((r) => r.id);
  let queued = 0;
  let refused = 0;
  const started = Date.now();
  for (let second = 0; second < seconds; second++) {
    const due = Math.round(((second + 1) * perMinute) / 60) - Math.round((second * perMinute) / 60);
    for (let i = 0; i < due && ids.length > 0; i++) {
      const lockId = ids.pop() as number;
      try {
        await database.transaction((tx) => enqueueCommand(tx, { tenantId: 100, lockId, type: 'clockSync', data: { time: Date.now() }, createdBy: 'bench' }, box));
        queued++;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        refused++;
      }
    }
    await sleep(Math.max(0, started + (second + 1) * 1000 - Date.now()));
  }
  return { queued, refused };
}

/**
 * Waits (at most `ms`) until no command the bench queued is still QUEUED, SENT or DELIVERED: a sleeping
 * lock gets its command only after its next uplink (the dispatcher's wake window), so up to one
 * heartbeat period. Resolves with how many are still open.
 */
export async function commandsSettled(database: Database, ms: number): Promise<number> {
  const end = Date.now() + ms;
  for (;;) {
    const open = rows<{ n: number }>(await database.system.execute(sql`
      select count(*)::int as n from commands where created_by = 'bench' and state in ('QUEUED', 'SENT', 'DELIVERED')`))[0]?.n ?? 0;
    if (open === 0 || Date.now() > end) return open;
    await sleep(1000);
  }
}

/**
 * Commands by who queued them (`bench`, or the platform itself, e.g. its clock syncs), type and state,
 * e.g. { 'bench clockSync SUCCESSFUL': 500 }.
 */
export async function commandStates(database: Database): Promise<Record<string, number>> {
  const result = rows<{ key: string; n: number }>(await database.system.execute(sql`
    select case when created_by = 'bench' then 'bench' else 'platform' end || ' ' || type || ' ' || state as key, count(*)::int as n
    from commands group by 1 order by 1`));
  return Object.fromEntries(result.map((r) => [r.key, r.n]));
}
