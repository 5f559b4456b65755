/**
 * A fleet of simulated locks, one MQTT 3.1.1 client each (docs/protocol.md). Connects are staggered
 * (`connectPerSecond`) so thousands of locks do not stampede the broker; reconnect periods are
 * randomised per lock for the same reason.
 */
import type { VendorKey } from '@iot/contract/firmware-signing';
import type { ActivityRates } from './activity.js';
import { type LockBehaviour, SimulatedLock } from './lock.js';
import type { AttemptInput, AttemptResult } from './open-attempt.js';
import type { OtaBehaviour } from './ota.js';
import { LockRunner } from './runner.js';
import type { Random, SimulatedDevice, SimulatorLog } from './types.js';

export interface FleetOptions {
  /** e.g. mqtt://127.0.0.1:1883 */
  brokerUrl: string;
  devices: SimulatedDevice[];
  /** Heartbeat interval of every lock, s (default: each device's heartbeatIntervalS). */
  heartbeatS?: number;
  log?: SimulatorLog;
  /** Source of randomness (default Math.random); pass seededRandom(n) for reproducible runs. */
  random?: Random;
  /** Connection attempts started per second (default 200). */
  connectPerSecond?: number;
  /** The first heartbeat after a connect comes within this many ms (default 2000). */
  firstHeartbeatWithinMs?: number;
  behaviour?: LockBehaviour;
  /** Unlocks, door movements and alarms (activity.ts ACTIVITY_PRESETS); default none: heartbeats only. */
  activity?: Partial<ActivityRates>;
  /** Locks with `alwaysOnline: false` sleep between uplinks (sleep.ts); false keeps every lock connected (default true). */
  sleep?: boolean;
  /** Wake window of a sleeping lock after each uplink, ms (default protocol.WAKE_WINDOW_MS). */
  wakeWindowMs?: number;
  /** Firmware update behaviour: failure rate and kinds, chunks per wake (ota.ts). */
  ota?: OtaBehaviour;
  /** Firmware signing keys the locks trust (default: the demo vendor key). */
  vendorKeys?: readonly VendorKey[];
}

/** A lock of the fleet, as seen from outside (read-only view). */
export interface FleetDevice {
  readonly imei: string;
  readonly lock: SimulatedLock;
  /** The MQTT connection is up. */
  readonly connected: boolean;
  /** The lock is in a simulated network outage. */
  readonly offline: boolean;
  /** The lock is sleeping (NB-IoT power saving, sleep.ts): disconnected until its next heartbeat. */
  readonly asleep: boolean;
  /** Heartbeats published / acknowledged by the broker (PUBACK). */
  readonly sent: number;
  readonly acked: number;
  /** Event uplinks (openRecord, doorState, alarm, configReport) published. */
  readonly events: number;
}

export interface Fleet {
  devices: FleetDevice[];
  /**
   * Someone tries to open lock `imei` with a password / card / finger (demo and test facility): the
   * lock decides and reports an openRecord (at once when connected, else when it next connects).
   * Undefined when the fleet has no such lock.
   */
  attemptOpen(imei: string, input: AttemptInput): AttemptResult | undefined;
  /**
   * Someone adds a password at the keypad of lock `imei` (demo and test facility): the lock
   * stores it unassigned and reports a LockUserChange and its inventory. `{ slot }`, null when the lock
   * refuses (full, or the digits held), undefined when the fleet has no such lock.
   */
  keypadAdd(imei: string, password: string): { slot: number } | null | undefined;
  /**
   * Starts more locks (e.g. locks registered in the console as simulated), connecting within a second;
   * a device whose IMEI the fleet already drives is skipped.
   */
  add(devices: SimulatedDevice[]): void;
  /**
   * Gives lock `imei` its new device secret (the platform reset it): it reconnects with it. False when
   * the fleet has no such lock.
   */
  setSecret(imei: string, secret: string): boolean;
  /** Stops every timer and disconnects every lock (waits up to ~2 s for in-flight acks). Never rejects. */
  stop(): Promise<void>;
}

/**
 * Starts one MQTT client per device: clientId = username = IMEI, password = secret, clean session
 * off, subscribed to `zg/{imei}/down`, publishing QoS 1 heartbeats (seq from lastSeq + 1) every
 * interval. Resolves once every connect is scheduled (not when all are connected).
 */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const random = options.random ?? Math.random;
  const connectPerSecond = options.connectPerSecond ?? 200;
  const runnerOf = (device: SimulatedDevice) => {
    const lock = new SimulatedLock(device, { random, intervalS: options.heartbeatS, behaviour: options.behaviour, activity: options.activity, ota: options.ota, vendorKeys: options.vendorKeys });
    return new LockRunner(lock, device.secret, options, random);
  };
  const runners = options.devices.map(runnerOf);
  for (const [index, runner] of runners.entries()) runner.start((index * 1000) / connectPerSecond);
  options.log?.info({ locks: runners.length, brokerUrl: options.brokerUrl }, 'simulated fleet starting');
  const byImei = new Map(runners.map((runner) => [runner.imei, runner]));
  return {
    devices: runners,
    attemptOpen(imei, input) {
      const runner = byImei.get(imei);
      if (!runner) return undefined;
      const { result, uplinks } = runner.lock.attemptOpen(input);
      runner.report(uplinks);
      return result;
    },
    keypadAdd(imei, password) {
      const runner = byImei.get(imei);
      if (!runner) return undefined;
      const added = runner.lock.keypadAdd(password);
      if (added) runner.report(added.uplinks);
      return added ? { slot: added.slot } : null;
    },
    setSecret(imei, secret) {
      const runner = byImei.get(imei);
      runner?.setSecret(secret);
      return runner !== undefined;
    },
    add(devices) {
      for (const device of devices) {
        if (byImei.has(device.imei)) continue;
        const runner = runnerOf(device);
        runners.push(runner);
        byImei.set(runner.imei, runner);
        runner.start(random() * 1000);
      }
    },
    async stop() {
      await Promise.all(runners.map((runner) => runner.stop()));
      options.log?.info({ locks: runners.length }, 'simulated fleet stopped');
    },
  };
}
