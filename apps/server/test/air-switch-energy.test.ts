/**
 * Air switch energy bookkeeping on PGlite and PostgreSQL, through the gateway's store and
 * the analysis service: each hourly row's cumulative kWh stays the running sum of the circuit's kWh
 * (also after a counter reset and a reading booked before the circuit's latest hour), the circuits'
 * totals match, the data centre's hourly maximum load is its circuits' maxima summed, and the top
 * consumers equal the hourly rows summed over the range, for ranges up to now and in the past whose
 * ends fall on an hour with a row and on one without.
 */
import type { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AirSwitchUplinkRecord, applyAirSwitchUplinks } from '../src/modules/airSwitch/ingest.js';
import { energyAnalysis } from '../src/modules/airSwitch/analysis.js';
import { createTestContext, rowsOf, skipSuite, type TestContext } from './helper.js';
import type { Database } from '../src/db/client.js';

/** One group commit of air switch uplinks, as the gateway's air switch kind stores them (gateway/device-kinds.ts). */
const storeAirSwitchUplinks = (database: Database, records: AirSwitchUplinkRecord[], timeZone: string) =>
  database.transaction((tx) => applyAirSwitchUplinks(tx, records, { timeZone }));

const ZONE = 'Asia/Shanghai';
const HOUR = 3600_000;

describe.skipIf(skipSuite)('air switch energy totals', () => {
  let ctx: TestContext;
  let switchId: number;
  const now = Date.now();
  const base = Math.floor(now / HOUR) * HOUR;
  const telemetry = (seq: number, at: number, counters: number[]) => ({
    airSwitchId: switchId, tenantId: 100, serial: 'AS0000777001',
    message: { msgId: `e${seq}`, seq, ts: at, type: 'telemetry', data: { circuits: counters.map((energyKwh, i) => ({
      circuit: i + 1, voltage: 230, current: 2, power: 400 + 100 * seq + i, powerFactor: 1, energyKwh, leakageMa: 1, temperatureC: 30, state: 'on',
    })) } } as protocol.AirSwitchUplinkMessage,
  });
  const day = (at: number) => new Intl.DateTimeFormat('sv-SE', { timeZone: ZONE }).format(new Date(at));
  const system = <T>(query: ReturnType<typeof sql>) => rowsOf<T>(ctx.database.system.execute(query));

  beforeAll(async () => {
    ctx = await createTestContext({}, 0);
    [{ id: switchId }] = await system<{ id: number }>(sql`
      insert into air_switches (tenant_id, serial, name, model) values (100, 'AS0000777001', 'energy', 'ZG-AS2') returning id`) as [{ id: number }];
    await ctx.database.system.execute(sql`insert into air_switch_circuits (tenant_id, air_switch_id, circuit, name) select 100, ${switchId}, n, 'L' || n from generate_series(1, 2) n`);
  });
  afterAll(async () => { await ctx?.close(); });

  it('keeps cumulative kWh, totals and the maximum load exact, with a counter reset and a late hour', async () => {
    await storeAirSwitchUplinks(ctx.database, [telemetry(1, base - 30 * HOUR + 60_000, [100, 50])], ZONE); // beyond a day: booked now
    await storeAirSwitchUplinks(ctx.database, [telemetry(2, base - 5 * HOUR, [101, 52]), telemetry(3, base - 3 * HOUR, [110, 55])], ZONE);
    await storeAirSwitchUplinks(ctx.database, [telemetry(4, base - HOUR, [130, 5])], ZONE); // circuit 2's meter reset: +5
    await storeAirSwitchUplinks(ctx.database, [telemetry(5, base - 4 * HOUR, [140, 6]), telemetry(6, base - 4 * HOUR + 60_000, [141, 6.5])], ZONE); // clock went back: late
    await storeAirSwitchUplinks(ctx.database, [telemetry(7, now, [142, 7])], ZONE); // the latest hour again: its maximum rises
    const rows = await system<{ kwh_total: number; running: number }>(sql`
      select kwh_total, sum(kwh) over (partition by circuit_id order by hour) as running from air_switch_energy_hourly h
      join air_switch_circuits c on c.id = h.circuit_id where c.air_switch_id = ${switchId}`);
    expect(rows.length).toBeGreaterThan(4);
    for (const row of rows) expect(row.kwh_total).toBeCloseTo(row.running, 9);
    const totals = await system<{ circuit: number; energy_total_kwh: number; sum: number }>(sql`
      select c.circuit, c.energy_total_kwh, (select sum(kwh) from air_switch_energy_hourly where circuit_id = c.id) as sum
      from air_switch_circuits c where c.air_switch_id = ${switchId} order by 1`);
    expect(totals.map((t) => t.energy_total_kwh)).toEqual([42, 12]);
    for (const t of totals) expect(t.energy_total_kwh).toBeCloseTo(Number(t.sum), 9);
    const loads = await system<{ power_max_w: number; w: number }>(sql`
      select l.power_max_w, (select sum(power_max::float8) from air_switch_energy_hourly h where h.tenant_id = l.tenant_id and h.hour = l.hour) as w
      from air_switch_load_hourly l where l.tenant_id = 100`);
    for (const l of loads) expect(l.power_max_w).toBeCloseTo(Number(l.w), 6);
  });

  it('answers the top consumers as the hourly rows summed over the range, now and in the past, in any zone', async () => {
    // A zone whose midnight falls `k` hours before the current hour: the range's start inside the rows.
    const zoneWithMidnight = (k: number) => {
      const off = ((((-(new Date(base).getUTCHours() - k)) % 24) + 24 + 12) % 24) - 12;
      return off === 0 ? 'UTC' : off > 0 ? `Etc/GMT-${off}` : `Etc/GMT+${-off}`;
    };
    const local = (at: number, timeZone: string) => new Intl.DateTimeFormat('sv-SE', { timeZone }).format(new Date(at));
    const cases: [string, string, string][] = [[day(now - 2 * 86_400_000), day(now), ZONE]];
    for (const k of [1, 2]) {
      const zone = zoneWithMidnight(k);
      cases.push([local(base, zone), local(base, zone), zone], [local(base - 25 * HOUR, zone), local(base - 25 * HOUR, zone), zone]);
    }
    for (const [from, to, timeZone] of cases) {
      const truth = await system<{ circuit_id: number; kwh: number }>(sql`
        select circuit_id, sum(kwh)::float8 as kwh from air_switch_energy_hourly
        where hour >= ${from}::date::timestamp at time zone ${timeZone} and hour < (${to}::date + 1)::timestamp at time zone ${timeZone}
        group by 1 order by 2 desc`);
      const result = await ctx.database.readTenant(100, (db) => energyAnalysis(db, { from, to, granularity: 'day', timeZone }, ZONE));
      expect(result.top.map((t) => [t.circuitId, t.kwh]), `${from}..${to} ${timeZone}`).toEqual(truth.map((t) => [t.circuit_id, Math.round(t.kwh * 1000) / 1000]));
      if (timeZone !== ZONE) expect(truth.length).toBeGreaterThan(0);
    }
  });
});
