/**
 * Three server instances behind a balancer (HAProxy, Debian's package) on one PostgreSQL and one
 * Mosquitto, the way docs/deploy.md "Several instances" deploys them. 30 locks publish QoS 1
 * heartbeats and answer commands; an operator's live stream (server-sent events) goes through the
 * balancer. The instance holding the stream is SIGKILLed while heartbeats flow and commands are on
 * their way, then restarted with its MQTT client id (its persistent session at the broker keeps what was
 * routed to it meanwhile). Promised:
 * - every heartbeat Mosquitto acknowledged is stored exactly once;
 * - every command succeeds and each of its attempts reached its lock at most once (no instance sends
 *   another's command). An attempt's answer that the broker routed to the killed instance waits in that
 *   instance's session (Mosquitto 2.0, docs/deploy.md); when the victim stays down past the response
 *   timeout (30 s; a loaded CI run) the command is sent again as a counted attempt. A
 *   command stored by the killed instance just before it died may have lost its announcement
 *   (`command.queued` goes out after commit): the dispatchers' safety sweep (COMMAND_SWEEP_MS, 5 min by
 *   default, 5 s here) sends it while the locks keep heartbeating;
 * - the stream ends with the instance and reconnects through the balancer to another one, resuming
 *   with Last-Event-ID;
 * - a session is valid on every instance, and a sign-out on one is refused on another (the principal
 *   cache's lifetime is raised to 60 s, so only the cross-instance event can explain the refusal).
 * Skipped with a warning without haproxy, mosquitto or PostgreSQL binaries; fails under CI. 40 s here,
 * 156 s in a loaded CI run.
 */
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { openLive } from '../test/sse-client.js';
import { api, createDatabase } from './cluster.js';
import { provisionLocks, rows, startLoad } from './devices.js';
import { haproxyAvailable, startHaproxy } from './haproxy.js';
import { mosquittoAvailable, startMosquitto } from './mosquitto.js';
import { freePort, type ServerProcess, signInOverHttp, startServer, waitUntil } from './server-process.js';

const LOCKS = 30;
const NAMES = ['a', 'b', 'c'];
const postgresUrl = inject('postgresUrl');
const available = haproxyAvailable && mosquittoAvailable && Boolean(postgresUrl);
if (!available && process.env.CI) throw new Error('haproxy, mosquitto or PostgreSQL missing (apt-get install haproxy mosquitto postgresql)');
if (!available) console.warn('[integration] haproxy, mosquitto or PostgreSQL missing: the three-instance test is skipped');

const stoppers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stoppers.splice(0).reverse()) await stop().catch(() => {});
});

describe.skipIf(!available)('three server instances behind a balancer', () => {
  it('lose no uplink, send no command attempt twice, move live streams and hold sessions across a kill -9 of one', async () => {
    const databaseUrl = await createDatabase(postgresUrl as string, 'iot_three');
    const database = await openDatabase({ databaseUrl, dataDir: '' });
    stoppers.push(() => database.close());
    const devices = await provisionLocks(database, LOCKS);
    // The operator (not the administrator, who must enrol in two-factor with DEMO off) may also sync clocks.
    await database.system.execute(sql`update roles set authorities = array_append(authorities, 'LOOK_CONFIG') where tenant_id = 100 and name = '门锁查看员'`);
    const lockIds = rows<{ id: number }>(await database.system.execute(sql`select id from locks where tenant_id = 100 order by id`)).map((row) => row.id);
    const platformPassword = 'platform-broker-secret';
    const users = new Map([['platform', platformPassword], ...devices.map((d) => [d.imei, d.secret] as [string, string])]);
    const broker = await startMosquitto(users, ['platform']);
    stoppers.push(() => broker.stop());

    const ports = new Map(await Promise.all(NAMES.map(async (name) => [name, await freePort()] as [string, number])));
    const servers = new Map<string, ServerProcess>();
    const start = async (name: string) => {
      const server = await startServer({
        DATABASE_URL: databaseUrl, MQTT_URL: broker.url('platform', platformPassword), MQTT_CLIENT_ID: `platform-${name}`,
        PORT: String(ports.get(name)), PRINCIPAL_CACHE_MS: '60000', COMMAND_SWEEP_MS: '5000',
      });
      stoppers.push(() => server.stop());
      servers.set(name, server);
    };
    await Promise.all(NAMES.map(start));
    const balancer = await startHaproxy(ports);
    stoppers.push(() => balancer.stop());
    const direct = (name: string) => `http://127.0.0.1:${ports.get(name)}`;

    // A session made through the balancer is valid on every instance.
    const token = await signInOverHttp(balancer.url, 'operator', 'integration-operator');
    for (const name of NAMES) expect((await api(direct(name), token, '/oauth/userInfo')).status).toBe(200);

    const load = startLoad({ url: broker.url(), devices, window: 5, ratePerS: 10, maxPerDevice: 100_000, answerCommands: true });
    stoppers.push(() => load.end());
    await waitUntil(() => load.ackedCount() >= 300, 20_000, '300 acknowledged heartbeats');

    expect((await api(balancer.url, token, '/oauth/userInfo')).status).toBe(200);
    const stream = await openLive(balancer.url, { token, tenantId: 100 });
    expect([stream.status, stream.refusal]).toEqual([200, undefined]);
    const victim = stream.headers.get('x-served-by') ?? '';
    expect(NAMES).toContain(victim);
    await stream.next((message) => message.event === 'lock.heartbeat', 20_000);

    // Commands to data centre 100's locks through the balancer: half before the kill, half racing it.
    // A request cut by the kill answers 502 (or its connection closes) and is sent again, as a client would; every command in the
    // database (the cut one too, if it was stored) must succeed once.
    const clockSync = async (lockId: number) => {
      for (let attempt = 0; ; attempt++) {
        const answer = await api<{ id: number }>(balancer.url, token, '/iot/v1/lockDevice/clockSync', { body: { lockId } })
          .catch(() => ({ status: 0 })); // the balancer closed the connection without an answer
        if (answer.status === 200 || attempt === 3) return expect(answer.status).toBe(200);
        expect([0, 502, 503]).toContain(answer.status);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };
    for (const lockId of lockIds.slice(0, lockIds.length / 2)) await clockSync(lockId);
    const racing = Promise.all(lockIds.slice(lockIds.length / 2).map(clockSync));
    console.info(`[three] killing ${victim} (it holds the live stream) after ${load.ackedCount()} acknowledged heartbeats`);
    await servers.get(victim)?.kill9();
    await racing;

    // The stream ends with its instance and resumes on another one through the balancer.
    await stream.ended;
    const lastId = stream.messages.at(-1)?.id;
    const resumed = await openLive(balancer.url, { token, tenantId: 100, lastEventIdHeader: lastId });
    stoppers.push(async () => resumed.close());
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('x-served-by')).not.toBe(victim);
    await resumed.next((message) => message.event === 'lock.heartbeat', 20_000);

    // A sign-out on one surviving instance is refused on the other (403 TOKEN_EXPIRED).
    const survivors = NAMES.filter((name) => name !== victim);
    const second = await signInOverHttp(balancer.url, 'operator', 'integration-operator');
    expect((await api(direct(survivors[1] ?? ''), second, '/oauth/userInfo')).status).toBe(200);
    expect((await api(direct(survivors[0] ?? ''), second, '/oauth/logout', { method: 'POST' })).status).toBe(200);
    const revokedAt = Date.now();
    await waitUntil(async () => (await api(direct(survivors[1] ?? ''), second, '/oauth/userInfo')).status === 403, 15_000, 'the sign-out refused on another instance');
    console.info(`[three] the sign-out on ${survivors[0]} was refused on ${survivors[1]} after ${Date.now() - revokedAt} ms`);
    expect((await api(balancer.url, token, '/oauth/userInfo')).status).toBe(200);

    // The killed instance comes back with its MQTT session; every command completes while the locks
    // heartbeat; then everything acknowledged is stored once.
    await start(victim);
    const commandStates = async () => rows<{ msg_id: string; state: string; attempts: number }>(await database.system.execute(
      sql`select msg_id, state, attempts from commands where type = 'clockSync'`));
    await waitUntil(async () => (await commandStates()).every((row) => row.state === 'SUCCESSFUL'), 60_000, 'every command successful', 200)
      .catch(async (error) => {
        console.error(`[three] command states: ${JSON.stringify(await commandStates())}`);
        throw error;
      });
    // Delivered at least once, and never more often than attempted: a second copy comes only from a counted retry.
    const deliveries = (await commandStates()).map((row) => ({ msgId: row.msg_id, times: load.downlinks.get(row.msg_id) ?? 0, attempts: Number(row.attempts) }));
    expect(deliveries.filter(({ times, attempts }) => times < 1 || times > attempts)).toEqual([]);
    const retried = deliveries.filter(({ attempts }) => attempts > 1).length;
    load.stopPublishing();
    expect(await load.drain(20_000)).toBe(true);
    const stored = async () => rows<{ n: number }>(await database.system.execute(sql`select count(*)::int as n from heartbeats`))[0]?.n ?? 0;
    await waitUntil(async () => (await stored()) >= load.ackedCount(), 30_000, 'every acknowledged heartbeat stored', 100);
    const [totals] = rows<{ n: number; distinct_n: number }>(await database.system.execute(
      sql`select count(*)::int as n, count(distinct (lock_id, seq))::int as distinct_n from heartbeats`));
    expect(totals?.n).toBe(totals?.distinct_n);
    expect(totals?.n).toBe(load.ackedCount());

    expect(deliveries.length).toBeGreaterThanOrEqual(lockIds.length);
    console.info(`[three] ${load.ackedCount()} heartbeats stored once; ${deliveries.length} commands, each attempt delivered at most once (${retried} retried after the response timeout)`);
  });
});
