/**
 * The demo (DEMO=on): seed data centres 100/101, the accounts `admin` and `operator` and SIM_LOCKS
 * simulated locks, then run the simulated fleet against the gateway and attach it to the simulated
 * keypad route. boot.ts and the demo fleet job (jobs/demo-job.ts) import this module dynamically,
 * only with DEMO=on, so a production process never loads the simulator.
 */
import { LOAD_PROFILES } from '@iot/contract';
import { ACTIVITY_PRESETS, type Fleet, startAirSwitchFleet, startFleet } from '@iot/simulator';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { isSimulatedOnlineImei, type SeededCredential, seedDemo } from './seed.js';
import { vendorKeysOf } from '../modules/firmware/vendor-keys.js';
import { issueSimulatorCredentials } from '../modules/lockDevice/credentials.js';
import { attachSimulator, lockTablesByImei } from './keypad.js';
import { seedDemoServicePeriods } from '../modules/lockDevice/service-period.js';
import { lazySecretBox, masterKeyFor } from '../crypto/secret-box.js';
import { seedDemoHistory } from './history/index.js';
import { ensureDemoAirSwitches, issueAirSwitchSimulatorCredentials } from '../modules/airSwitch/registry.js';
import { seedDemoHolidays } from './history/holidays.js';

/**
 * Seeds the demo data (idempotent); returns the passwords it generated, to be printed once.
 * @public boot.ts imports this module dynamically (knip 5 does not follow that import's members).
 */
export async function seedDemoData(database: Database, config: Config): Promise<SeededCredential[]> {
  const created = await seedDemo(database, { adminPassword: config.ADMIN_PASSWORD, operatorPassword: config.OPERATOR_PASSWORD, simLocks: config.SIM_LOCKS,
    simOnlineLocks: config.SIM_LOCKS > 0 ? config.SIM_ONLINE_LOCKS : 0 });
  await seedDemoServicePeriods(database.system); // some locks near or past their service end
  await ensureDemoAirSwitches(database, [100, 101], config.SIM_AIR_SWITCHES, config.TELEMETRY_TIME_ZONE);
  await seedDemoHolidays(database);
  return created;
}

/**
 * On a first start (an empty heartbeat log), a week of history for the simulated locks (demo/history/):
 * returns how many rows it wrote and how long it took, ms; undefined when it seeded nothing. None with
 * SIM_LOCKS=0: no simulated fleet goes on from the history, and locks driven from outside (the
 * integration tests' load) count their seq from what they were issued, which the history would move.
 * @public boot.ts imports this module dynamically.
 */
export async function seedDemoWeek(database: Database, config: Config): Promise<{ rows: number; ms: number } | undefined> {
  if (config.SIM_LOCKS <= 0) return undefined;
  const started = performance.now();
  const rows = await seedDemoHistory(database, lazySecretBox(config));
  return rows === undefined ? undefined : { rows, ms: Math.round(performance.now() - started) };
}

/**
 * Starts SIM_LOCKS simulated locks (none when 0) on the gateway's broker; returns the fleet, if any.
 * @public the demo fleet job imports this module dynamically.
 */
export async function startDemoFleet(app: FastifyInstance, database: Database, config: Config, brokerPort: number): Promise<{ stop(): Promise<void> } | undefined> {
  const locks = await startDemoLocks(app, database, config, brokerPort);
  const switches = await startDemoAirSwitches(app, database, config, brokerPort);
  if (!locks && !switches) return undefined;
  return { stop: async () => { await Promise.all([locks?.stop(), switches?.stop()]); } };
}

/**
 * The simulated air switches (SIM_AIR_SWITCHES per demo data centre, seeded by
 * seedDemoData; their profile follows their number: office, shop, residence) with fresh secrets.
 */
async function startDemoAirSwitches(app: FastifyInstance, database: Database, config: Config, brokerPort: number) {
  if (config.SIM_AIR_SWITCHES <= 0) return undefined;
  const devices = (await issueAirSwitchSimulatorCredentials(database))
    .map((device) => ({ ...device, profile: LOAD_PROFILES[(Number(device.serial.slice(-6)) - 1) % LOAD_PROFILES.length] }));
  if (devices.length === 0) return undefined;
  const brokerUrl = config.MQTT_URL ? deviceBrokerUrl(config.MQTT_URL) : `mqtt://127.0.0.1:${brokerPort}`;
  return startAirSwitchFleet({ brokerUrl, devices, intervalS: config.SIM_AIR_SWITCH_INTERVAL_S, log: app.log });
}

async function startDemoLocks(app: FastifyInstance, database: Database, config: Config, brokerPort: number): Promise<Fleet | undefined> {
  if (config.SIM_LOCKS <= 0) return undefined;
  // Each lock beats at SIM_HEARTBEAT_S or its SIM_HEARTBEAT_S_BY_IMEI interval and reports it (heartbeat intervalS).
  const { started, left } = demoLockChoice(await issueSimulatorCredentials(database, [], undefined, masterKeyFor(config)), config);
  // Each lock starts with the users and credentials the platform confirmed on it (a real lock keeps them;
  // so its inventory matches the platform's).
  const tables = await lockTablesByImei(database, started.map((device) => device.imei), lazySecretBox(config));
  const devices = started
    .map((device) => ({ ...device, heartbeatIntervalS: config.SIM_HEARTBEAT_S_BY_IMEI[device.imei] ?? config.SIM_HEARTBEAT_S, tables: tables.get(device.imei) }));
  // External broker: the same host and port, but the locks' own credentials, never the platform's.
  const brokerUrl = config.MQTT_URL ? deviceBrokerUrl(config.MQTT_URL) : `mqtt://127.0.0.1:${brokerPort}`;
  // The simulated locks trust the vendor keys the platform does (FIRMWARE_VENDOR_KEYS and the demo key).
  const fleet = await startFleet({ brokerUrl, devices, wakeWindowMs: config.WAKE_WINDOW_MS, log: app.log, activity: ACTIVITY_PRESETS[config.SIM_ACTIVITY], vendorKeys: vendorKeysOf(config),
    // SIM_OUTAGES: about one lock in ten is flaky (each of its heartbeats is followed by an outage of 3-6
    // intervals with 10 % chance), so an offline lock shows within minutes; off: none.
    behaviour: { flakyRatio: config.SIM_OUTAGES ? 0.1 : 0 } });
  attachSimulator(app, fleet); // POST /iot/v1/simulator/attemptOpen
  const unfollow = followRegistry(app, database, config, fleet, left.map((device) => device.imei));
  return { ...fleet, stop: async () => { unfollow(); await fleet.stop(); } };
}

/**
 * Which simulated locks (in lock id order) the demo starts: the first SIM_LOCKS of the NB-IoT ones
 * (and locks registered as simulated) and the first SIM_ONLINE_LOCKS always-online ones (their own
 * IMEI range); the rest (a smaller number on an older data directory) stay off.
 */
function demoLockChoice<T extends { imei: string }>(issued: T[], config: Config): { started: T[]; left: T[] } {
  const online = issued.filter((device) => isSimulatedOnlineImei(device.imei));
  const others = issued.filter((device) => !isSimulatedOnlineImei(device.imei));
  return {
    started: [...others.slice(0, config.SIM_LOCKS), ...online.slice(0, config.SIM_ONLINE_LOCKS)],
    left: [...others.slice(config.SIM_LOCKS), ...online.slice(config.SIM_ONLINE_LOCKS)],
  };
}

/**
 * The fleet follows the lock registry's events, from any instance:
 * - a lock registered, edited or enabled as simulated that the fleet does not drive yet gets a fresh
 *   secret and joins it (`lock.changed`);
 * - a simulated lock whose secret an operator reset (`lock.secretReset`; the secret itself never
 *   travels) gets another fresh secret, which the fleet takes: the gateway dropped its session, and
 *   its reconnect uses the new one. The secret shown to the operator is then spent, as a simulated
 *   lock has no keypad to type it into.
 * `left`: simulated locks the fleet must not start. Returns the function that stops following.
 */
export function followRegistry(app: FastifyInstance, database: Database, config: Config, fleet: Fleet, left: readonly string[] = []): () => void {
  const interval = (imei: string) => config.SIM_HEARTBEAT_S_BY_IMEI[imei] ?? config.SIM_HEARTBEAT_S;
  const failed = (error: unknown) => app.log.warn({ err: error }, 'simulated fleet: could not follow the registry');
  const stops = [
    database.events.on('lock.changed', ({ change }) => {
      if (change !== 'added' && change !== 'updated' && change !== 'enabled') return;
      return issueSimulatorCredentials(database, [...left, ...fleet.devices.map((device) => device.imei)], undefined, masterKeyFor(config))
        .then((devices) => fleet.add(devices.map((device) => ({ ...device, heartbeatIntervalS: interval(device.imei) })))).catch(failed);
    }),
    database.events.on('lock.secretReset', ({ imei }) => {
      if (!fleet.devices.some((device) => device.imei === imei)) return;
      return issueSimulatorCredentials(database, [], [imei]).then((devices) => { for (const device of devices) fleet.setSecret(device.imei, device.secret); }).catch(failed);
    }),
  ];
  return () => { for (const stop of stops) stop(); };
}

/** `url` without user name and password (mqtt://user:pass@host:port -> mqtt://host:port). */
function deviceBrokerUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

/** The demo customer code of data centre 100, pushing to the embedded demo receiver. */
export const DEMO_CUSTOMER_CODE = 'DEMO-100';

/**
 * Makes sure data centre 100 has the demo customer code with a key and a configuration pushing unlocks,
 * alarms, door states, command results and credential sync results to the demo receiver on `port`.
 * @public the demo fleet job imports this module dynamically.
 */
export async function seedDemoSubscription(database: Database, config: Config, port: number): Promise<void> {
  const { customerCodeId, listCustomerCodes, saveCustomerCode, writeConfig } = await import('../modules/subscription/customerCodes.js');
  const { rotateKey } = await import('../modules/subscription/keys.js');
  const { DEMO_RECEIVER_PATH } = await import('./receiver.js');
  await database.withTenant(100, async (tx) => {
    const [existing] = await listCustomerCodes(tx, DEMO_CUSTOMER_CODE);
    const id = existing?.customerCode === DEMO_CUSTOMER_CODE ? existing.id
      : (await saveCustomerCode(tx, 100, { customerCode: DEMO_CUSTOMER_CODE, name: '演示接收端 Demo receiver', contact: '', enabled: true })).id;
    if (!existing?.keys.length) await rotateKey(tx, 100, await customerCodeId(tx, DEMO_CUSTOMER_CODE), 0, lazySecretBox(config));
    await writeConfig(tx, 100, id, {
      url: `http://127.0.0.1:${port}${DEMO_RECEIVER_PATH}`,
      eventTypes: existing?.config?.eventTypes ?? ['unlock', 'alarm', 'doorState', 'commandResult', 'credentialSync'],
      buildings: existing?.config?.buildings ?? [], enabled: existing?.config?.enabled ?? true,
    });
  });
}
