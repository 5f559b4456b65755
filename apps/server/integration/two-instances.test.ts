/**
 * Cluster mode (ARCHITECTURE.md "a cluster when needed"): two real server instances, one PostgreSQL
 * database, Debian's mosquitto as the external broker (`MQTT_URL`) with per-device passwords and ACL.
 * 50 locks publish QoS 1 heartbeats as fast as mosquitto acknowledges them; instance B is SIGKILLed
 * mid-stream and restarted with the same MQTT_CLIENT_ID (its persistent session keeps what the broker
 * routed to it meanwhile). Every heartbeat mosquitto acknowledged to a lock must end up stored exactly
 * once, and both instances must have taken a share of the `$share/platform/...` subscription.
 * Skipped with a warning without mosquitto or PostgreSQL binaries; fails under CI. Bounded: ~40 s.
 */
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { createDatabase } from './cluster.js';
import { provisionLocks, rows, startLoad } from './devices.js';
import { type Mosquitto, mosquittoAvailable, startMosquitto } from './mosquitto.js';
import { freePort, type ServerProcess, startServer, waitUntil } from './server-process.js';

const LOCKS = 50;
const postgresUrl = inject('postgresUrl');
if (!mosquittoAvailable && process.env.CI) throw new Error('mosquitto not installed (apt-get install mosquitto mosquitto-clients)');
if (!mosquittoAvailable || !postgresUrl) console.warn('[integration] mosquitto or PostgreSQL missing: the two-instance test is skipped');

const stoppers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stoppers.splice(0).reverse()) await stop().catch(() => {});
});

describe.skipIf(!mosquittoAvailable || !postgresUrl)('two server instances behind mosquitto', () => {
  it('store every heartbeat mosquitto acknowledged exactly once, sharing the uplinks, across a kill -9 of one', async () => {
    const databaseUrl = await createDatabase(postgresUrl);
    const database = await openDatabase({ databaseUrl, dataDir: '' });
    stoppers.push(() => database.close());
    const devices = await provisionLocks(database, LOCKS);
    const platformPassword = 'platform-broker-secret';
    const users = new Map([['platform', platformPassword], ...devices.map((d) => [d.imei, d.secret] as [string, string])]);
    const broker: Mosquitto = await startMosquitto(users, ['platform']);
    stoppers.push(() => broker.stop());

    const instance = async (id: string): Promise<ServerProcess> => {
      const server = await startServer({
        DATABASE_URL: databaseUrl, MQTT_URL: broker.url('platform', platformPassword), MQTT_CLIENT_ID: `platform-${id}`, PORT: String(await freePort()),
      });
      stoppers.push(() => server.stop());
      return server;
    };
    const [a, firstB] = await Promise.all([instance('a'), instance('b')]);

    // 50 locks x 40/s = 2,000 heartbeats/s for ~3 s (6,000 in all).
    const load = startLoad({ url: broker.url(), devices, window: 5, ratePerS: 40, maxPerDevice: 120 });
    stoppers.push(() => load.end());
    await waitUntil(() => load.ackedCount() >= 1500, 20_000, '1,500 acknowledged heartbeats');
    console.info(`[cluster] killing b after ${load.ackedCount()} acknowledged heartbeats`);
    await firstB.kill9(); // its unacknowledged and further routed uplinks wait in its session at the broker
    const b = await instance('b');
    expect(await load.drain(20_000)).toBe(true);
    await load.end();

    const count = async () =>
      rows<{ n: number }>(await database.system.execute(sql`select count(*)::int as n from heartbeats`))[0]?.n ?? 0;
    await waitUntil(async () => (await count()) >= load.ackedCount(), 30_000, 'every acknowledged heartbeat stored', 50).catch(async (error) => {
      const warnings = (s: ServerProcess) => s.lines.filter((l) => l.includes('"level":40') || l.includes('"level":50')).slice(0, 5).map((l) => l.slice(0, 300));
      console.error(`[cluster] stored ${await count()} of ${load.ackedCount()}\n[a] ${warnings(a).join('\n[a] ')}\n[b] ${warnings(b).join('\n[b] ')}`);
      throw error;
    });
    await Promise.all([a.stop(), b.stop()]);
    const warnings = (s: ServerProcess) => s.lines.filter((l) => /"level":(40|50)/.test(l)).map((l) => l.slice(0, 400));
    for (const [name, s] of [['a', a], ['b', b]] as const) if (warnings(s).length) console.warn(`[cluster] ${name}: ${warnings(s).length} warnings, first: ${warnings(s)[0]}`);

    const stored = rows<{ imei: string; seq: number }>(await database.system.execute(
      sql`select l.imei, h.seq from heartbeats h join locks l on l.id = h.lock_id`));
    const [totals] = rows<{ n: number; distinct_n: number }>(await database.system.execute(
      sql`select count(*)::int as n, count(distinct (lock_id, seq))::int as distinct_n from heartbeats`));
    const keys = new Set(stored.map((row) => `${row.imei}:${row.seq}`));
    const missing = [...load.acked].flatMap(([imei, seqs]) => [...seqs].filter((seq) => !keys.has(`${imei}:${seq}`)));
    expect(missing).toEqual([]);
    expect(totals?.n).toBe(totals?.distinct_n);
    expect(totals?.n).toBe(load.ackedCount());

    const received = (server: ServerProcess) => {
      const closed = server.logs('external mqtt broker client closed')[0] as { external?: { received: number } } | undefined;
      return closed?.external?.received ?? 0;
    };
    console.info(`[cluster] ${load.ackedCount()} heartbeats; received by a: ${received(a)}, by b after its restart: ${received(b)}`);
    expect(received(a)).toBeGreaterThan(0);
    expect(received(b)).toBeGreaterThan(0);
  });
});
