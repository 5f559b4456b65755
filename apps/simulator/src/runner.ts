/**
 * One simulated lock on its own MQTT connection: when it connects, beats and drops off (heartbeat
 * schedule, NB-IoT sleep (sleep.ts), occasional outages, restarts). Its event uplinks are queued in
 * runner-uplinks.ts, its downlinks answered in runner-downlinks.ts, its connection made and ended in
 * runner-connection.ts. Used by fleet.ts.
 */
import { protocol } from '@iot/contract';
import type { MqttClient } from 'mqtt';
import type { FleetDevice, FleetOptions } from './fleet.js';
import type { EventMessage, SimulatedLock } from './lock.js';
import { connectLock, endThen, endWithin } from './runner-connection.js';
import { type DownlinkHost, OtaDriver } from './runner-downlinks.js';
import { UplinkQueue } from './runner-uplinks.js';
import { SleepCycle } from './sleep.js';
import type { Random } from './types.js';

/** Drives one SimulatedLock over its own MQTT connection. */
export class LockRunner implements FleetDevice, DownlinkHost {
  readonly imei: string;
  sent = 0;
  acked = 0;
  offline = false;
  asleep = false;
  client: MqttClient | undefined;
  readonly nap: SleepCycle;
  stopped = false;
  /** ms since epoch of the next heartbeat (sleep.ts). */
  private nextBeatAt = 0;
  /** The next connect is a wake-up: report a heartbeat at once. */
  private wakeBeat = false;
  private timer: NodeJS.Timeout | undefined; // connect delay, heartbeat or end of outage
  private readonly uplinks: UplinkQueue;
  private readonly ota = new OtaDriver(this);

  constructor(
    readonly lock: SimulatedLock,
    private secret: string,
    private readonly options: FleetOptions,
    private readonly random: Random,
  ) {
    this.imei = lock.imei;
    const sleeps = (options.sleep ?? true) && lock.device.alwaysOnline === false;
    this.nap = new SleepCycle(sleeps, options.wakeWindowMs ?? protocol.WAKE_WINDOW_MS, () => this.fallAsleep(), () => this.nextBeatAt);
    this.uplinks = new UplinkQueue(this.imei, () => this.nap.uplinkSent());
  }

  /** Event uplinks (openRecord, doorState, alarm, configReport, ...) published. */
  get events(): number { return this.uplinks.events; }

  /** Publishes event uplinks (QoS 1) in seq order; counted in `events`. */
  publish(client: MqttClient, messages: EventMessage[]): void {
    this.uplinks.publish(client, messages);
  }

  /** Event uplinks of something done at the door (fleet.ts attemptOpen, keypadAdd): now when connected, else at the next connect. */
  report(uplinks: EventMessage[]): void {
    this.uplinks.report(this.client, uplinks);
  }

  /** The device secret was reset on the platform: later connects (the reconnect after the platform dropped the session included) use `secret`. */
  setSecret(secret: string): void {
    this.secret = secret;
    if (this.client) this.client.options.password = secret;
  }

  get connected(): boolean { return this.client?.connected ?? false; }

  start(delayMs: number): void {
    this.timer = setTimeout(() => this.connect(), delayMs);
  }

  private connect(): void {
    this.timer = undefined;
    if (this.stopped) return;
    this.client = connectLock(this.options.brokerUrl, this.imei, this.secret, this.random, {
      onConnect: (client, connack) => {
        if (!connack.sessionPresent) client.subscribe(protocol.downlinkTopic(this.imei), { qos: 1 }, () => {});
        this.uplinks.flush(client);
        if (this.wakeBeat) {
          this.wakeBeat = false;
          this.sendHeartbeat(client);
          this.afterHeartbeat(client); // a sleeping lock's heartbeat is followed like any other
          return;
        }
        this.publish(client, this.lock.eventsOnConnect());
        // A lock reports as soon as it is (re)connected; the fleet spreads out from the second heartbeat on.
        if (!this.timer) this.schedule(this.random() * (this.options.firstHeartbeatWithinMs ?? 2000), true);
      },
      onMessage: (payload) => this.ota.receive(payload),
    }, this.options.log);
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
    this.publish(client, this.lock.eventsAfterHeartbeat());
    const outage = this.lock.offlineIntervalsAfterHeartbeat();
    if (outage > 0) this.goOffline(outage * this.lock.intervalS * 1000);
    return outage > 0;
  }

  private sendHeartbeat(client: MqttClient): void {
    this.sent++;
    client.publish(protocol.uplinkTopic(this.imei), JSON.stringify(this.lock.nextHeartbeat()), { qos: 1 }, (error) => {
      if (!error) this.acked++;
    });
    this.nap.uplinkSent();
    this.ota.act(this.lock.ota.woke());
  }

  /**
   * Flashing / a dead battery: the lock disconnects (once its last uplinks are acknowledged), comes
   * back `afterMs` later and reports a heartbeat at once.
   */
  restart(afterMs: number, onBoot: () => void): void {
    this.nap.cancel();
    this.ota.cancel();
    clearTimeout(this.timer);
    this.timer = undefined;
    const client = this.client;
    this.client = undefined;
    const boot = () => {
      this.timer = setTimeout(() => {
        if (this.stopped) return;
        onBoot();
        this.asleep = false;
        this.wakeBeat = true;
        this.connect();
        this.schedule(this.lock.intervalS * 1000, false);
      }, afterMs);
    };
    if (client) endThen(client, boot); // graceful: the status uplinks' PUBACKs are awaited first
    else boot();
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
    this.ota.cancel();
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.client) await endWithin(this.client);
  }
}
