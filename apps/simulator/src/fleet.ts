/**
 * A fleet of simulated locks, one MQTT 3.1.1 client each (docs/protocol.md). Connects are staggered
 * (`connectPerSecond`) so thousands of locks do not stampede the broker; reconnect periods are
 * randomised per lock for the same reason.
 */
import { protocol } from '@iot/contract';
import mqtt, { type MqttClient } from 'mqtt';
import type { ActivityRates } from './activity.js';
import { type EventMessage, type LockBehaviour, SimulatedLock } from './lock.js';
import type { Answer } from './commands.js';
import type { AttemptInput, AttemptResult } from './open-attempt.js';
import { SleepCycle } from './sleep.js';
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
  const runners = options.devices.map((device) => {
    const lock = new SimulatedLock(device, { random, intervalS: options.heartbeatS, behaviour: options.behaviour, activity: options.activity });
    return new LockRunner(lock, device.secret, options, random);
  });
  for (const [index, runner] of runners.entries()) runner.start((index * 1000) / connectPerSecond);
  options.log?.info({ locks: runners.length, brokerUrl: options.brokerUrl }, 'simulated fleet starting');
  const byImei = new Map(runners.map((runner) => [runner.imei, runner]));
  return {
    devices: runners,
    attemptOpen: (imei, input) => byImei.get(imei)?.attemptOpen(input),
    async stop() {
      await Promise.all(runners.map((runner) => runner.stop()));
      options.log?.info({ locks: runners.length }, 'simulated fleet stopped');
    },
  };
}

/** Drives one SimulatedLock over its own MQTT connection. */
class LockRunner implements FleetDevice {
  readonly imei: string;
  sent = 0;
  acked = 0;
  events = 0;
  offline = false;
  asleep = false;
  private client: MqttClient | undefined;
  private readonly nap: SleepCycle;
  /** ms since epoch of the next heartbeat (sleep.ts). */
  private nextBeatAt = 0;
  /** The next connect is a wake-up: report a heartbeat at once. */
  private wakeBeat = false;
  private timer: NodeJS.Timeout | undefined; // connect delay, heartbeat or end of outage
  private stopped = false;
  private warned = false;
  /** Event uplinks waiting for a connection (an open attempt on a sleeping or offline lock). */
  private pending: EventMessage[] = [];

  constructor(
    readonly lock: SimulatedLock,
    private readonly secret: string,
    private readonly options: FleetOptions,
    private readonly random: Random,
  ) {
    this.imei = lock.imei;
    const sleeps = (options.sleep ?? true) && lock.device.alwaysOnline === false;
    this.nap = new SleepCycle(sleeps, options.wakeWindowMs ?? protocol.WAKE_WINDOW_MS, () => this.fallAsleep(), () => this.nextBeatAt);
  }

  /** See Fleet.attemptOpen. */
  attemptOpen(input: AttemptInput): AttemptResult {
    const { result, uplink } = this.lock.attemptOpen(input);
    if (this.client?.connected) this.publishEvents(this.client, [uplink]);
    else this.pending.push(uplink);
    return result;
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  start(delayMs: number): void {
    this.timer = setTimeout(() => this.connect(), delayMs);
  }

  private connect(): void {
    this.timer = undefined;
    if (this.stopped) return;
    const client = mqtt.connect(this.options.brokerUrl, {
      protocolVersion: 4,
      clientId: this.imei,
      username: this.imei,
      password: this.secret,
      clean: false,
      keepalive: 60,
      connectTimeout: 15_000,
      reconnectPeriod: 1000 + Math.floor(this.random() * 4000),
    });
    this.client = client;
    client.on('connect', (connack) => {
      this.warned = false;
      if (!connack.sessionPresent) client.subscribe(protocol.downlinkTopic(this.imei), { qos: 1 }, () => {});
      const pending = this.pending.splice(0);
      if (pending.length > 0) this.publishEvents(client, pending);
      if (this.wakeBeat) {
        this.wakeBeat = false;
        this.sendHeartbeat(client);
        return;
      }
      this.publishEvents(client, this.lock.eventsOnConnect());
      // A lock reports as soon as it is (re)connected; the fleet spreads out from the second heartbeat on.
      if (!this.timer) this.schedule(this.random() * (this.options.firstHeartbeatWithinMs ?? 2000), true);
    });
    client.on('message', (_topic, payload) => this.answer(this.lock.handleDownlink(payload)));
    client.on('error', (error) => {
      if (!this.warned) this.options.log?.warn({ imei: this.imei, err: error.message }, 'simulated lock: mqtt error');
      this.warned = true;
    });
  }

  private schedule(delayMs: number, first: boolean): void {
    this.nextBeatAt = Date.now() + delayMs;
    this.timer = setTimeout(() => this.beat(first), delayMs);
  }

  private beat(first: boolean): void {
    this.timer = undefined;
    const intervalMs = this.lock.intervalS * 1000;
    if (this.asleep && !this.stopped) {
      this.wake(); // the heartbeat goes out once connected
      this.schedule(intervalMs, false);
      return;
    }
    const client = this.client;
    if (this.stopped || !client) return;
    if (client.connected) {
      this.sendHeartbeat(client);
      this.publishEvents(client, this.lock.eventsAfterHeartbeat());
      const outage = this.lock.offlineIntervalsAfterHeartbeat();
      if (outage > 0) {
        this.goOffline(outage * intervalMs);
        return;
      }
    }
    this.schedule(first ? this.random() * intervalMs : intervalMs, false);
  }

  /** Publishes event uplinks (QoS 1) in seq order; counted in `events`. */
  private publishEvents(client: MqttClient, messages: EventMessage[]): void {
    for (const message of messages) {
      this.events++;
      client.publish(protocol.uplinkTopic(this.imei), JSON.stringify(message), { qos: 1 }, () => {});
    }
    if (messages.length > 0) this.nap.uplinkSent();
  }

  private sendHeartbeat(client: MqttClient): void {
    this.sent++;
    client.publish(protocol.uplinkTopic(this.imei), JSON.stringify(this.lock.nextHeartbeat()), { qos: 1 }, (error) => {
      if (!error) this.acked++;
    });
    this.nap.uplinkSent();
  }

  /** Sends the commandResult (and configReport) of each downlink answer after its delay. */
  private answer(answers: Answer[]): void {
    for (const answer of answers) {
      this.nap.busy++;
      setTimeout(() => {
        this.nap.busy--;
        const client = this.client;
        if (this.stopped || !client) return; // lost with the connection; the platform retries
        const results: EventMessage[] = [this.lock.nextUplink({ type: 'commandResult', data: answer.result })];
        if (answer.configReport) results.push(this.lock.nextUplink({ type: 'configReport', data: { config: answer.configReport } }));
        this.publishEvents(client, results);
      }, answer.delayMs);
    }
  }

  /** End of the wake window: disconnect (persistent session) until the next heartbeat. */
  private fallAsleep(): void {
    const client = this.client;
    if (this.stopped || this.offline || !client) return;
    this.asleep = true;
    this.client = undefined;
    client.end(false);
  }

  private wake(): void {
    this.asleep = false;
    this.wakeBeat = true;
    this.connect();
  }

  private goOffline(durationMs: number): void {
    this.offline = true;
    this.nap.cancel();
    this.options.log?.debug?.({ imei: this.imei, durationMs }, 'simulated lock going offline');
    const client = this.client;
    this.client = undefined;
    client?.end(false); // graceful: the last heartbeat's PUBACK is awaited first
    this.timer = setTimeout(() => {
      this.offline = false;
      this.connect();
    }, durationMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.nap.cancel();
    clearTimeout(this.timer);
    this.timer = undefined;
    const client = this.client;
    if (!client) return;
    const graceful = client.connected ? client.endAsync(false) : client.endAsync(true);
    let timeout: NodeJS.Timeout | undefined;
    const forced = new Promise<void>((resolve) => {
      timeout = setTimeout(() => client.end(true, () => resolve()), 2000);
    });
    await Promise.race([graceful.catch(() => {}), forced]);
    clearTimeout(timeout);
  }
}
