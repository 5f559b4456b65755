/**
 * One simulated lock on its own MQTT connection: connect with its credentials, heartbeats and event
 * uplinks, downlink answers, NB-IoT sleep (sleep.ts) and occasional outages. Used by fleet.ts.
 */
import { protocol } from '@iot/contract';
import mqtt, { type MqttClient } from 'mqtt';
import type { Answer } from './commands.js';
import type { FleetDevice, FleetOptions } from './fleet.js';
import type { EventMessage, SimulatedLock } from './lock.js';
import type { AttemptInput, AttemptResult } from './open-attempt.js';
import type { OtaAction } from './ota.js';
import { SleepCycle } from './sleep.js';

/** A chunk request without an answer this long is sent again, ms. */
const CHUNK_TIMEOUT_MS = 5000;
import type { Random } from './types.js';

/** Drives one SimulatedLock over its own MQTT connection. */
export class LockRunner implements FleetDevice {
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
  private otaTimer: NodeJS.Timeout | undefined; // chunk request without an answer
  private stopped = false;
  private warned = false;
  /** Event uplinks waiting for a connection (an open attempt on a sleeping or offline lock). */
  private pending: EventMessage[] = [];

  constructor(
    readonly lock: SimulatedLock,
    private secret: string,
    private readonly options: FleetOptions,
    private readonly random: Random,
  ) {
    this.imei = lock.imei;
    const sleeps = (options.sleep ?? true) && lock.device.alwaysOnline === false;
    this.nap = new SleepCycle(sleeps, options.wakeWindowMs ?? protocol.WAKE_WINDOW_MS, () => this.fallAsleep(), () => this.nextBeatAt);
  }

  /** See Fleet.attemptOpen. */
  attemptOpen(input: AttemptInput): AttemptResult {
    const { result, uplinks } = this.lock.attemptOpen(input);
    this.report(uplinks);
    return result;
  }

  /** See Fleet.keypadAdd. */
  keypadAdd(password: string): { slot: number } | null {
    const added = this.lock.keypadAdd(password);
    if (!added) return null;
    this.report(added.uplinks);
    return { slot: added.slot };
  }

  /** Event uplinks of something done at the door: now when connected, else at the next connect. */
  private report(uplinks: EventMessage[]): void {
    if (this.client?.connected) this.publishEvents(this.client, uplinks);
    else this.pending.push(...uplinks);
  }

  /**
   * The lock's device secret was reset on the platform: later connects (the reconnect after the
   * platform dropped the session included) use `secret`.
   */
  setSecret(secret: string): void {
    this.secret = secret;
    if (this.client) this.client.options.password = secret;
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
        this.afterHeartbeat(client); // a sleeping lock's heartbeat is followed like any other
        return;
      }
      this.publishEvents(client, this.lock.eventsOnConnect());
      // A lock reports as soon as it is (re)connected; the fleet spreads out from the second heartbeat on.
      if (!this.timer) this.schedule(this.random() * (this.options.firstHeartbeatWithinMs ?? 2000), true);
    });
    client.on('message', (_topic, payload) => {
      const ota = this.lock.otaDownlink(payload);
      if (ota) {
        clearTimeout(this.otaTimer);
        this.act(ota);
      } else {
        this.answer(this.lock.handleDownlink(payload));
      }
    });
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
      if (this.afterHeartbeat(client)) return;
    }
    this.schedule(first ? this.random() * intervalMs : intervalMs, false);
  }

  /**
   * What follows a heartbeat, whether the lock was awake or just woke for it: its activity's event
   * uplinks, then perhaps an outage (LockBehaviour). Returns true when the lock went offline.
   */
  private afterHeartbeat(client: MqttClient): boolean {
    this.publishEvents(client, this.lock.eventsAfterHeartbeat());
    const outage = this.lock.offlineIntervalsAfterHeartbeat();
    if (outage > 0) this.goOffline(outage * this.lock.intervalS * 1000);
    return outage > 0;
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
    this.act(this.lock.ota.woke());
  }

  /** Carries out the firmware transfer's next steps (ota.ts). */
  private act(actions: OtaAction[]): void {
    const client = this.client;
    if (this.stopped || !client) return;
    for (const action of actions) {
      if (action.kind === 'request' || action.kind === 'status') {
        const type = action.kind === 'request' ? 'otaChunkRequest' : 'otaStatus';
        this.publishEvents(client, [this.lock.nextUplink({ type, data: action.data } as never)]);
        if (action.kind === 'request') {
          clearTimeout(this.otaTimer);
          this.otaTimer = setTimeout(() => this.act(this.lock.ota.retry()), CHUNK_TIMEOUT_MS);
        }
      } else if (action.kind === 'reboot') {
        this.restart(action.afterMs, () => this.lock.rebooted());
        return;
      } else {
        this.restart(action.durationMs, () => {});
        return;
      }
    }
  }

  /**
   * Flashing / a dead battery: the lock disconnects (once its last uplinks are acknowledged), comes
   * back `afterMs` later and reports a heartbeat at once.
   */
  private restart(afterMs: number, onBoot: () => void): void {
    this.nap.cancel();
    clearTimeout(this.otaTimer);
    clearTimeout(this.timer);
    this.timer = undefined;
    const client = this.client;
    this.client = undefined;
    let gone = false;
    const boot = () => {
      if (gone) return;
      gone = true;
      this.timer = setTimeout(() => {
        if (this.stopped) return;
        onBoot();
        this.asleep = false;
        this.wakeBeat = true;
        this.connect();
        this.schedule(this.lock.intervalS * 1000, false);
      }, afterMs);
    };
    if (!client) {
      boot();
      return;
    }
    client.end(false, {}, boot); // graceful: the status uplinks' PUBACKs are awaited first
    setTimeout(() => { if (!gone) client.end(true, {}, boot); }, 2000);
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
        if (answer.inventory) results.push(this.lock.nextUplink(this.lock.inventory('request')));
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
    clearTimeout(this.timer); // a sleeping lock's next wake-up: the outage decides when it is back
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
    clearTimeout(this.otaTimer);
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
