/**
 * Migration 0068 (the air switches' commands move from `air_switch_commands` into the one `commands`
 * outbox) on a filled database: a database migrated up to 0067 gets 300 lock commands and 200 air switch
 * commands of two tenants in every state, then 0068 moves them. Every lock command keeps its id and
 * values; every air switch command keeps its values under a new id and takes its kind's policy columns
 * (max_attempts 1, attempts 1 once sent, expires_at 60 s after queueing). Tenant isolation holds, and
 * each kind's lifecycle goes on with the moved rows without touching the other kind's.
 */
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { rowsOf } from '../src/db/rows.js';
import { markAirSwitchDelivered, sweepAirSwitchCommands } from '../src/modules/command/air-switch.js';
import { sweepCommands } from '../src/modules/command/lifecycle.js';
import { skipSuite } from './helper.js';
import { databaseBefore, refusingConstraint, removeDatabaseBefore, twoDataCentres } from './migrations-before.js';

/** A command's values besides its id, device and the outbox's policy columns, as text. */
const VALUES = sql.raw(`concat_ws('|', c.msg_id, c.tenant_id, c.type, c.data::text, c.state, c.created_by, c.created_at, c.sent_at,
  c.delivered_at, c.completed_at, c.result_code, c.result_detail)`);
const STATES = ['QUEUED', 'SENT', 'DELIVERED', 'SUCCESSFUL', 'FAILED', 'TIMEOUT', 'EXPIRED', 'CANCELED'];
/** `n` commands about 7 minutes apart, every third tenant 200's, states in turn; sent unless QUEUED, answered when final. */
const fill = (n: number) => sql`from generate_series(1, ${n}::int) g, lateral (select case when g % 3 = 0 then 200 else 100 end as t,
  now() - make_interval(mins => g * 7) as at, (${sql.param(STATES)}::text[])[1 + g % 8] as state) x`;
const sent = sql`case when state <> 'QUEUED' and state <> 'CANCELED' then at + interval '1 second' end`;
const done = sql`case when state in ('SUCCESSFUL', 'FAILED', 'TIMEOUT', 'EXPIRED', 'CANCELED') then at + interval '9 seconds' end`;

describe.skipIf(skipSuite)('one command table: migration on a filled database', () => {
  let database: Database;
  let folder: string;
  let lockOf: Map<number, number>;
  let switchOf: Map<number, number>;
  let lockDigest: unknown;
  let switchValues: string[];
  let maxId = 0;
  const run = (query: SQL) => database.system.execute(query);

  beforeAll(async () => {
    ({ database, folder } = await databaseBefore('0068_one_command_table'));
    ({ lockOf, switchOf } = await twoDataCentres(database));
    const lock = sql`case t when 100 then ${lockOf.get(100)}::int else ${lockOf.get(200)}::int end`;
    const box = sql`case t when 100 then ${switchOf.get(100)}::int else ${switchOf.get(200)}::int end`;
    await run(sql`insert into commands (msg_id, tenant_id, lock_id, type, data, state, attempts, created_by, created_at, expires_at, sent_at,
      delivered_at, completed_at, result_code, result_detail, result_slot)
      select 'lock-' || g, t, ${lock}, 'credentialAdd', jsonb_build_object('slot', g), state, case when ${sent} is null then 0 else 1 + g % 3 end,
        'op' || g % 4, at, now() + interval '1 day', ${sent}, ${sent}, ${done}, case when state = 'FAILED' then 3 end, case when state = 'FAILED' then 'full' end,
        case when state = 'SUCCESSFUL' then g % 50 end ${fill(300)}`);
    // Ids of the two tables overlap (both start at 1).
    await run(sql`insert into air_switch_commands (tenant_id, air_switch_id, msg_id, circuit, type, data, state, created_by, created_at, sent_at,
      delivered_at, completed_at, result_code, result_detail)
      select t, ${box}, 'switch-' || g, 1 + g % 4, 'switch', jsonb_build_object('on', g % 2 = 0), state, 'op' || g % 4, at, ${sent},
        case when state in ('DELIVERED', 'SUCCESSFUL', 'FAILED') then at + interval '2 seconds' end, ${done},
        case when state = 'FAILED' then 2 end, case when state = 'FAILED' then 'breaker stuck' end ${fill(200)}`);
    lockDigest = rowsOf(await run(sql`select count(*)::int as n, md5(string_agg(concat_ws('|', c.id, c.lock_id, c.attempts, c.max_attempts,
      c.expires_at, c.result_slot, ${VALUES}), ',' order by c.id)) as sum from commands c`));
    switchValues = rowsOf<{ v: string }>(await run(sql`select c.air_switch_id || ':' || c.circuit || ':' || ${VALUES} as v from air_switch_commands c order by c.id`))
      .map((row) => row.v);
    maxId = Number(rowsOf<{ id: string }>(await run(sql`select max(id) as id from commands`))[0]?.id);
    await migrateDatabase(database);
  }, 180_000);
  afterAll(() => removeDatabaseBefore(database, folder));

  it('keeps every lock command with its id and values, as device kind lock', async () => {
    expect(lockDigest).toEqual([{ n: 300, sum: expect.any(String) }]);
    expect(rowsOf(await run(sql`select count(*)::int as n, md5(string_agg(concat_ws('|', c.id, c.lock_id, c.attempts, c.max_attempts,
      c.expires_at, c.result_slot, ${VALUES}), ',' order by c.id)) as sum from commands c where c.device_kind = 'lock'`))).toEqual(lockDigest);
  });

  it('moves every air switch command with its values, in order, under new ids, with its kind\'s policy columns', async () => {
    const moved = rowsOf<{ id: string; v: string }>(await run(sql`select c.id, c.air_switch_id || ':' || c.circuit || ':' || ${VALUES} as v
      from commands c where c.device_kind = 'airSwitch' order by c.id`));
    expect(switchValues).toHaveLength(200);
    expect(moved.map((row) => row.v)).toEqual(switchValues);
    expect(Math.min(...moved.map((row) => Number(row.id)))).toBeGreaterThan(maxId);
    expect(rowsOf(await run(sql`select count(*)::int as n from commands where device_kind = 'airSwitch' and (max_attempts <> 1
      or attempts <> (case when sent_at is null then 0 else 1 end) or expires_at <> created_at + interval '60 seconds' or result_slot is not null)`)))
      .toEqual([{ n: 0 }]);
    expect(rowsOf(await run(sql`select to_regclass('air_switch_commands') as old`))).toEqual([{ old: null }]);
  });

  it("keeps another tenant's commands of either kind invisible", async () => {
    const count = (tenant: number) => database.withTenant(tenant, async (tx) =>
      rowsOf<{ kind: string; n: number }>(await tx.execute(sql`select device_kind as kind, count(*)::int as n from commands group by 1 order by 1`)));
    expect(await count(200)).toEqual([{ kind: 'airSwitch', n: 66 }, { kind: 'lock', n: 100 }]);
    expect(await count(100)).toEqual([{ kind: 'airSwitch', n: 134 }, { kind: 'lock', n: 200 }]);
  });

  it('goes on with the moved rows, each kind\'s sweep touching its own commands only', async () => {
    const open = async (kind: string) => rowsOf<{ state: string; n: number }>(await run(sql`select state, count(*)::int as n from commands
      where device_kind = ${kind} and state in ('QUEUED', 'SENT', 'DELIVERED') group by 1 order by 1`));
    const lockOpen = await open('lock');
    // switch-1 is tenant 100's, SENT (1 + 1 % 8 = 2), 7 minutes ago: its PUBACK still marks it DELIVERED.
    expect(await markAirSwitchDelivered(database.system, 'AS00000100', 'switch-1')).toBe(true);
    expect(await sweepAirSwitchCommands(database.system, { responseTimeoutMs: 15_000 })).toEqual({ timedOut: 50, expired: 25 });
    expect(await open('airSwitch')).toEqual([]);
    expect(await open('lock')).toEqual(lockOpen);
    await run(sql`update commands set state = 'QUEUED', completed_at = null where msg_id = 'switch-7'`);
    const swept = await sweepCommands(database.system, { responseTimeoutMs: 0, limit: 1000, followers: [] });
    expect(swept.expired).toBe(0); // the lock commands expire tomorrow; switch-7 is not the locks' sweep's
    expect(rowsOf(await run(sql`select state from commands where msg_id = 'switch-7'`))).toEqual([{ state: 'QUEUED' }]);
    const refused = await refusingConstraint(run(sql`insert into commands (msg_id, tenant_id, device_kind, lock_id, air_switch_id, circuit, type, data, created_by, expires_at)
      values ('both', 100, 'lock', ${lockOf.get(100)}, ${switchOf.get(100)}, 1, 'switch', '{}', 'x', now())`));
    expect(refused).toBe('commands_one_device');
  });
});
