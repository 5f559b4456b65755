/**
 * Analysis snapshots (modules/analysis/snapshot.ts) on PGlite and PostgreSQL: with no snapshot the
 * analysis computes in the request; after the job's refresh it answers from the snapshot (a lock
 * registered since is counted only at the next refresh) with `generatedAt` the snapshot's time; a
 * stale snapshot is not used; refreshing is due-based and two refreshes at once write each part once;
 * a tenant's reader never sees another tenant's row; every data centre (scope=all) is merged from the
 * snapshots exactly as the request would compute it, and computed when a data centre has none.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locks, tenants } from '../src/db/schema.js';
import { analyse, readScope } from '../src/modules/analysis/queries.js';
import { readSnapshot, refreshSnapshots, snapshotPeriods } from '../src/modules/analysis/snapshot.js';
import { call, createTestContext, dataOf, rowsOf, signIn, skipSuite, type TestContext } from './helper.js';

const WAKE_MS = 20_000;
const ALWAYS = { currentMs: 0, listsMs: 0 };

describe.skipIf(skipSuite)('analysis snapshots', () => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestContext({ ANALYSIS_SNAPSHOT_MS: 60_000 }, 10);
    token = await signIn(ctx.app);
  });
  afterAll(() => ctx?.close());

  const analysis = async (tenantId = 100) => dataOf(await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/analysis?days=30', tenantId }));
  const tenantCount = async () => (await rowsOf<{ n: number }>(ctx.database.system.execute(sql`select count(*)::int as n from tenants`)))[0]?.n ?? 0;
  const addLock = (imei: string) => ctx.database.system.insert(locks).values({ tenantId: 100, imei, name: `snapshot ${imei}`, model: 'ZG-NB100', firmwareVersion: '1.0.0' });

  it('computes in the request until the job has written a snapshot, then answers from it', async () => {
    const live = await analysis();
    const started = Date.now();
    expect(Date.parse(live.generatedAt)).toBeGreaterThan(started - 5_000);
    // Every tenant gets both parts on the first refresh; a second refresh right after finds nothing due.
    expect(await refreshSnapshots(ctx.database, WAKE_MS, snapshotPeriods(60_000))).toBe(2 * await tenantCount());
    expect(await refreshSnapshots(ctx.database, WAKE_MS, snapshotPeriods(60_000))).toBe(0);
    const snapped = await analysis();
    expect(snapped.fleet).toEqual(live.fleet);
    expect(snapped.top).toEqual(live.top);
    expect(snapped.batteryForecast).toEqual(live.batteryForecast);
    expect(snapped.buildings).toEqual(live.buildings);
    expect(snapped.trends.newLocks).toEqual(live.trends.newLocks);

    await addLock('356938035643809');
    const stale = await analysis();
    expect(stale.fleet.total).toBe(live.fleet.total); // the snapshot's count, up to one period old
    expect(stale.generatedAt).toBe(snapped.generatedAt);
    expect(await refreshSnapshots(ctx.database, WAKE_MS, ALWAYS)).toBe(2 * await tenantCount());
    const fresh = await analysis();
    expect(fresh.fleet.total).toBe(live.fleet.total + 1);
    expect(fresh.trends.newLocks.at(-1)).toBe((live.trends.newLocks.at(-1) ?? 0) + 1);
    expect(Date.parse(fresh.generatedAt)).toBeGreaterThan(Date.parse(snapped.generatedAt));
  });

  it('does not use a snapshot older than three periods', async () => {
    await refreshSnapshots(ctx.database, WAKE_MS, ALWAYS);
    await addLock('356938035643817');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Periods of 5 ms: the snapshot written above is stale after 15 ms, so the request computes.
    const data = await ctx.database.readTenant(100, (db) => analyse(db, 100, 30, WAKE_MS, { currentMs: 5, listsMs: 5 }));
    const snapshot = await ctx.database.readTenant(100, (db) => readSnapshot(db, 100, snapshotPeriods(60_000)));
    expect(data.fleet.total).toBe((snapshot.current?.fleet.total ?? 0) + 1);
  });

  it('writes each due part once when two refreshes run at once', async () => {
    const [x, y] = await Promise.all([refreshSnapshots(ctx.database, WAKE_MS, ALWAYS), refreshSnapshots(ctx.database, WAKE_MS, ALWAYS)]);
    // A tenant's row is claimed by one refresh (the other skips it), or refreshed again after the first committed.
    expect(x + y).toBeGreaterThanOrEqual(2 * await tenantCount());
    expect(x + y).toBeLessThanOrEqual(4 * await tenantCount());
    expect(await refreshSnapshots(ctx.database, WAKE_MS, snapshotPeriods(60_000))).toBe(0);
  });

  it("confines a tenant's reader to its own snapshot row", async () => {
    const seen = await rowsOf<{ tenant_id: number }>(ctx.database.readTenant(101, (db) => db.execute(sql`select tenant_id from analysis_snapshots`)));
    expect(seen.map((r) => Number(r.tenant_id))).toEqual([101]);
    expect(await ctx.database.readTenant(101, (db) => readSnapshot(db, 100, snapshotPeriods(60_000)))).toEqual({});
    expect((await analysis(101)).fleet.total).toBeGreaterThan(0);
  });

  it('merges every data centre\'s snapshot for scope=all exactly as the request computes it', async () => {
    const all = async () => dataOf(await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/analysis?days=30&scope=all', tenantId: 100 }));
    await refreshSnapshots(ctx.database, WAKE_MS, ALWAYS);
    const live = await readScope(ctx.database, null, (db) => analyse(db, null, 30, WAKE_MS));
    const merged = await all();
    const snapshot = await ctx.database.readTenant(100, (db) => readSnapshot(db, 100, snapshotPeriods(60_000)));
    expect(Date.parse(merged.generatedAt)).toBeLessThanOrEqual(Date.parse(snapshot.currentAt ?? ''));
    for (const key of ['fleet', 'attention', 'distributions', 'alarmsOpen', 'commands', 'top', 'batteryForecast', 'trends'] as const) expect(merged[key]).toEqual(live[key]);
    const byName = (list: { building: string }[]) => [...list].sort((a, b) => a.building.localeCompare(b.building));
    expect(byName(merged.buildings)).toEqual(byName(live.buildings));
    // A lock added since: the merged view keeps the snapshots' count until a data centre has no snapshot.
    await addLock('356938035643825');
    expect((await all()).fleet.total).toBe(live.fleet.total);
    await ctx.database.system.insert(tenants).values({ id: 199, name: 'snapshot test' });
    expect((await all()).fleet.total).toBe(live.fleet.total + 1);
  });
});
