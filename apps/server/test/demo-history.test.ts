/**
 * The demo's lived-in week (demo/history/): every log and credential list shows rows spread
 * over seven days, in several states, each answer parsed with the contract; a second start seeds
 * nothing; the generator is deterministic; the simulated locks start with what the platform confirmed on them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../src/crypto/secret-box.js';
import { DEMO_HISTORY_DAYS, seedDemoHistory } from '../src/demo/history/index.js';
import { fleetHistory, HOUR } from '../src/demo/history/fleet.js';
import { planPeople } from '../src/demo/history/people.js';
import { lockTablesByImei } from '../src/demo/keypad.js';
import { simulatedLocks } from '../src/modules/lockDevice/history.js';
import { call, createTestContext, dataOf, signIn, skipSuite, type TestContext } from './helper.js';

const NOW = Date.parse('2026-11-20T06:30:00Z');
const DAY = 24 * HOUR;

describe.skipIf(skipSuite)('demo history', () => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestContext({}, 20);
    expect(await seedDemoHistory(ctx.database, createSecretBox(Buffer.alloc(32, 7)), NOW)).toBeGreaterThan(3000);
    token = await signIn(ctx.app);
  });
  afterAll(() => ctx?.close());

  const list = async (url: string, tenantId = 100) => dataOf(await call(ctx.app, token, { method: 'GET', url, tenantId }));
  const all = async (url: string) => (await list(`${url}${url.includes('?') ? '&' : '?'}current=1&size=500`)).records as Record<string, unknown>[];
  const spanDays = (times: unknown[]) => (Math.max(...times.map((t) => Date.parse(String(t)))) - Math.min(...times.map((t) => Date.parse(String(t))))) / DAY;

  it('seeds once: a second start with history finds it and writes nothing', async () => {
    expect(await seedDemoHistory(ctx.database, createSecretBox(Buffer.alloc(32, 7)), NOW)).toBeUndefined();
  });

  it('fills the device logs with a week of rows', async () => {
    const heartbeats = await list('/iot/v1/logHeartbeat/list?current=1&size=10');
    expect(heartbeats.total).toBeGreaterThan(16 * DEMO_HISTORY_DAYS * 24 * 0.9); // 16 locks in 100, hourly
    for (const type of ['openRecord', 'doorState', 'alarm', 'configReport', 'commandResult']) {
      expect((await list(`/iot/v1/logUpCommand/list?type=${type}&current=1&size=1`)).total, type).toBeGreaterThan(0);
    }
    const opens = await all('/iot/v1/lockOpenRecord/list');
    expect(opens.length).toBeGreaterThan(100);
    expect(spanDays(opens.map((row) => row.receivedAt))).toBeGreaterThan(5);
    expect(Math.max(...opens.map((row) => Date.parse(String(row.receivedAt))))).toBeLessThan(NOW);
  });

  it('keeps tenant-wide lists, ordered by id, in time order (rows inserted oldest first)', async () => {
    for (const url of ['/iot/v1/logHeartbeat/list', '/iot/v1/logDownCommand/list']) {
      const times = (await list(`${url}?current=3&size=100`)).records.map((row: { receivedAt?: string; createdAt?: string }) => Date.parse(row.receivedAt ?? row.createdAt ?? ''));
      expect(times.every((time: number, i: number) => i === 0 || times[i - 1] >= time), url).toBe(true);
    }
  });

  it('has alerts active and cleared, acknowledged and not', async () => {
    const alerts = await all('/iot/v1/lockAlert/list');
    const states = new Set(alerts.map((row) => `${row.state}/${row.acknowledgedBy ? 'ack' : 'unack'}`));
    expect(states).toContain('cleared/ack');
    expect(states).toContain('cleared/unack');
    expect([...states].some((state) => state.startsWith('active'))).toBe(true);
  });

  it('has commands in several final states, answered ones with their result', async () => {
    const commands = await all('/iot/v1/logDownCommand/list');
    const states = new Set(commands.map((row) => row.state));
    for (const state of ['SUCCESSFUL', 'TIMEOUT', 'FAILED']) expect(states).toContain(state);
    expect(states).not.toContain('QUEUED'); // nothing for the dispatcher to send
    expect(commands.filter((row) => row.state === 'SUCCESSFUL').every((row) => row.resultCode === 0)).toBe(true);
  });

  it('has lock users with passwords, cards and fingerprints in several sync states, and their operation logs', async () => {
    const users = await all('/iot/v1/operateUser/list');
    expect(users.length).toBeGreaterThan(20);
    expect(new Set(users.map((row) => row.status))).toEqual(new Set(['normal', 'frozen']));
    const credentials = [...await all('/iot/v1/operatePassword/list'), ...await all('/iot/v1/operateCard/list'), ...await all('/iot/v1/operateFp/list')];
    expect(new Set(credentials.map((row) => row.kind))).toEqual(new Set(['password', 'tempPassword', 'card', 'fingerprint']));
    const syncStates = new Set([...users, ...credentials].map((row) => row.syncState));
    for (const state of ['normal', 'add_failed', 'delete_failed', 'modify_failed']) expect(syncStates).toContain(state);
    for (const base of ['operateUser', 'operatePassword', 'operateCard', 'operateFp']) {
      const log = await all(`/iot/v1/${base}/log`);
      expect(log.length, base).toBeGreaterThan(0);
      expect(log.every((row) => row.commandId !== null && row.operator === 'admin')).toBe(true);
    }
  });

  it('writes the system log of the week: daily sign-ins and the operations', async () => {
    const rows = await all('/iot/v1/SysOperateLog/getLogList');
    const signIns = rows.filter((row) => row.action === 'sign-in' && row.result === 'success');
    expect(signIns.length).toBeGreaterThanOrEqual(2 * (DEMO_HISTORY_DAYS - 1));
    expect(spanDays(signIns.map((row) => row.createdAt))).toBeGreaterThan(5);
    expect(rows.some((row) => row.action === 'POST /iot/v1/zg/foreverPassword')).toBe(true);
  });

  it('leaves each lock its last readings and seq, so the live fleet goes on from there', async () => {
    const locks = (await list('/iot/v1/lockDevice/list?current=1&size=50')).records as { battery: number | null; lastHeartbeatAt: string | null }[];
    expect(locks.every((lock) => lock.battery !== null && lock.lastHeartbeatAt !== null)).toBe(true);
  });

  it('generates the same week from the same fleet and clock', async () => {
    const locks = await simulatedLocks(ctx.database.system);
    const week = () => {
      const start = Math.floor(NOW / HOUR) * HOUR - DEMO_HISTORY_DAYS * DAY;
      const people = planPeople(locks, start, NOW);
      const fleet = fleetHistory(locks, start, NOW, people.plans);
      return { fleet, users: people.users, credentials: people.credentials, operations: people.operations, audit: people.audit };
    };
    expect(week()).toEqual(week());
  });

  it("gives each simulated lock the users and credentials the platform confirmed on it (a seeded user exists on its lock)", async () => {
    const users = await all('/iot/v1/operateUser/list?syncState=normal');
    const user = users[0] as { imei: string; userSlot: number; name: string };
    const tables = await lockTablesByImei(ctx.database, [user.imei], createSecretBox(Buffer.alloc(32, 7)));
    const onLock = tables.get(user.imei);
    expect(onLock?.users).toContainEqual([user.userSlot, expect.objectContaining({ name: user.name })]);
    // Passwords with their digits (the lock must know them), none still being added or failed to add.
    const passwords = (await all(`/iot/v1/operatePassword/list?imei=${user.imei}`)) as { slot: number; syncState: string }[];
    const confirmed = passwords.filter((p) => p.syncState !== 'adding' && p.syncState !== 'add_failed').map((p) => p.slot).sort();
    expect(onLock?.passwords.map(([slot]) => slot).sort()).toEqual(confirmed);
    expect(onLock?.passwords.every(([, entry]) => /^\d{4,12}$/.test(entry.digits))).toBe(true);
  });
});
