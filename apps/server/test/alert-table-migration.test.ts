/**
 * Migration 0067 (the air switches' alarms move from `air_switch_alerts` into the one `alerts` table) on a
 * filled database: a database migrated up to 0066 gets 300 lock alerts and 200 air switch alerts of two
 * tenants (active, cleared, acknowledged with notes) and notifications pointing at both, then 0067 moves
 * them. Every lock alert keeps its id and values; every air switch alert keeps its values under a new id,
 * and each notification follows it there; a notification whose alert was gone loses its link. Tenant
 * isolation holds, and the lifecycle goes on with the moved rows (a repeat counts on the moved active
 * alert; acknowledging by one kind does not touch the other's).
 */
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { rowsOf } from '../src/db/rows.js';
import { acknowledgeAirSwitchAlerts, applyAlarmChanges } from '../src/modules/deviceAlert/air-switch.js';
import { skipSuite } from './helper.js';
import { databaseBefore, refusingConstraint, removeDatabaseBefore, twoDataCentres } from './migrations-before.js';

/** An alert's values besides its id and device, as text. */
const VALUES = sql.raw(`concat_ws('|', a.tenant_id, a.kind, a.severity, a.state, a.occurrences, a.detail, a.first_at, a.last_at,
  a.cleared_at, a.acknowledged_by, a.acknowledged_at, a.acknowledge_note)`);
/** `n` rows of alerts about 97 minutes apart, every third tenant 200's, every fifth active, every seventh acknowledged with a note. */
const fill = (n: number) => sql`from generate_series(1, ${n}::int) g, lateral (select case when g % 3 = 0 then 200 else 100 end as t,
  now() - make_interval(mins => g * 97) as at, g % 5 = 0 as active, g % 7 = 0 as acked) x`;

describe.skipIf(skipSuite)('one alert table: migration on a filled database', () => {
  let database: Database;
  let folder: string;
  let lockOf: Map<number, number>;
  let switchOf: Map<number, number>;
  let lockDigest: unknown;
  let switchValues: string[];
  let followed: { id: number; v: string }[];
  let maxId = 0;
  const run = (query: SQL) => database.system.execute(query);

  beforeAll(async () => {
    ({ database, folder } = await databaseBefore('0067_one_alert_table'));
    ({ lockOf, switchOf } = await twoDataCentres(database));
    const lock = sql`case t when 100 then ${lockOf.get(100)}::int else ${lockOf.get(200)}::int end`;
    const box = sql`case t when 100 then ${switchOf.get(100)}::int else ${switchOf.get(200)}::int end`;
    const lifecycle = sql`case when active then 'active' else 'cleared' end, 1 + g % 4, 'detail ' || g, at, at + interval '5 minutes',
      case when not active then at + interval '1 hour' end, case when acked then 'op' || g % 3 end, case when acked then at + interval '2 hours' end,
      case when acked then 'note ' || g end`;
    await run(sql`insert into alerts (tenant_id, lock_id, kind, severity, state, occurrences, detail, first_at, last_at, cleared_at,
      acknowledged_by, acknowledged_at, acknowledge_note) select t, ${lock}, 'kind' || g, 'major', ${lifecycle} ${fill(300)}`);
    // Ids of the two tables overlap (both start at 1): a notification's alert id alone did not say which.
    await run(sql`insert into air_switch_alerts (tenant_id, air_switch_id, circuit, kind, severity, state, occurrences, detail, first_at, last_at,
      cleared_at, acknowledged_by, acknowledged_at, acknowledge_note) select t, ${box}, 1 + g % 4, 'overCurrent' || g, 'critical', ${lifecycle} ${fill(200)}`);
    await run(sql`insert into notifications (tenant_id, kind, severity, device_kind, device_id, alert_id)
      select tenant_id, kind, severity, 'lock', lock_id, id from alerts where id % 10 = 0
      union all select tenant_id, kind, severity, 'airSwitch', air_switch_id, id from air_switch_alerts where id % 4 = 0
      union all values (100, 'trip', 'critical', 'airSwitch', ${switchOf.get(100)}::int, 999999::bigint), (100, 'stayNoShow', 'minor', 'stay', 1, null)`);
    lockDigest = rowsOf(await run(sql`select count(*)::int as n, md5(string_agg(a.id || ':' || a.lock_id || ':' || ${VALUES}, ',' order by a.id)) as sum from alerts a`));
    switchValues = rowsOf<{ v: string }>(await run(sql`select a.air_switch_id || ':' || a.circuit || ':' || ${VALUES} as v from air_switch_alerts a order by a.id`)).map((row) => row.v);
    followed = rowsOf<{ id: number; v: string }>(await run(sql`select n.id::int, n.device_kind || ':' || ${VALUES} as v from notifications n
      join alerts a on a.id = n.alert_id and n.device_kind = 'lock'
      union all select n.id::int, n.device_kind || ':' || ${VALUES} from notifications n join air_switch_alerts a on a.id = n.alert_id and n.device_kind = 'airSwitch'
      order by 1`));
    maxId = Number(rowsOf<{ id: string }>(await run(sql`select max(id) as id from alerts`))[0]?.id);
    await migrateDatabase(database);
  }, 180_000);
  afterAll(() => removeDatabaseBefore(database, folder));

  it('keeps every lock alert with its id and values, as device kind lock', async () => {
    expect(lockDigest).toEqual([{ n: 300, sum: expect.any(String) }]);
    expect(rowsOf(await run(sql`select count(*)::int as n, md5(string_agg(a.id || ':' || a.lock_id || ':' || ${VALUES}, ',' order by a.id)) as sum
      from alerts a where a.device_kind = 'lock'`))).toEqual(lockDigest);
  });

  it('moves every air switch alert with its values, in order, under new ids after the lock alerts', async () => {
    const moved = rowsOf<{ id: string; v: string }>(await run(sql`select a.id, a.air_switch_id || ':' || a.circuit || ':' || ${VALUES} as v
      from alerts a where a.device_kind = 'airSwitch' order by a.id`));
    expect(switchValues).toHaveLength(200);
    expect(moved.map((row) => row.v)).toEqual(switchValues);
    expect(Math.min(...moved.map((row) => Number(row.id)))).toBeGreaterThan(maxId);
    expect(rowsOf(await run(sql`select to_regclass('air_switch_alerts') as old`))).toEqual([{ old: null }]);
  });

  it('points every notification at its alert in the new table; one whose alert was gone loses its link', async () => {
    const after = rowsOf<{ id: number; v: string }>(await run(sql`select n.id::int, n.device_kind || ':' || ${VALUES} as v
      from notifications n join alerts a on a.id = n.alert_id order by 1`));
    expect(followed.length).toBe(30 + 50);
    expect(after).toEqual(followed);
    expect(rowsOf(await run(sql`select device_kind, alert_id from notifications where kind in ('trip', 'stayNoShow') order by kind`)))
      .toEqual([{ device_kind: 'stay', alert_id: null }, { device_kind: 'airSwitch', alert_id: null }]);
  });

  it("keeps another tenant's alerts of either kind invisible", async () => {
    const count = (tenant: number) => database.withTenant(tenant, async (tx) =>
      rowsOf<{ kind: string; n: number }>(await tx.execute(sql`select device_kind as kind, count(*)::int as n from alerts group by 1 order by 1`)));
    expect(await count(200)).toEqual([{ kind: 'airSwitch', n: 66 }, { kind: 'lock', n: 100 }]);
    expect(await count(100)).toEqual([{ kind: 'airSwitch', n: 134 }, { kind: 'lock', n: 200 }]);
  });

  it('goes on with the moved rows: a repeat counts on the moved active alert; an acknowledgement touches its own kind only', async () => {
    const box = switchOf.get(100) as number;
    // g = 5 is tenant 100's, active, circuit 2, occurrences 2.
    await database.withTenant(100, (tx) => applyAlarmChanges(tx, [{ tenantId: 100, airSwitchId: box, circuit: 2, kind: 'overCurrent5', severity: 'major', detail: null, cleared: false }]));
    expect(rowsOf(await run(sql`select occurrences, severity, state from alerts where air_switch_id = ${box} and kind = 'overCurrent5'`)))
      .toEqual([{ occurrences: 3, severity: 'major', state: 'active' }]);
    const lockAlert = rowsOf<{ id: string }>(await run(sql`select id from alerts where device_kind = 'lock' and tenant_id = 100 and acknowledged_at is null limit 1`))[0]?.id;
    const switchAlert = rowsOf<{ id: string }>(await run(sql`select id from alerts where device_kind = 'airSwitch' and tenant_id = 100 and acknowledged_at is null limit 1`))[0]?.id;
    expect(await database.withTenant(100, (tx) => acknowledgeAirSwitchAlerts(tx, [Number(lockAlert), Number(switchAlert)], 'admin'))).toBe(1);
    expect(rowsOf(await run(sql`select acknowledged_by from alerts where id = ${Number(lockAlert)}`))).toEqual([{ acknowledged_by: null }]);
    // An air switch alert without its circuit is refused by the table itself.
    const refused = await refusingConstraint(run(sql`insert into alerts (tenant_id, device_kind, air_switch_id, kind, severity) values (100, 'airSwitch', ${box}, 'x', 'minor')`));
    expect(refused).toBe('alerts_one_device');
  });
});
