/**
 * Simulated air switches over MQTT: one always-online connection each (client id =
 * username = serial, clean session off, subscribed to `as/{serial}/down`), telemetry every
 * `intervalS` with the state's events, and answers to downlinks: `switch` really switches the circuit
 * (switchEvent, then commandResult 0), `thresholds` is kept and reported (configReport, commandResult 0).
 * Seq continues from the platform's last stored one, so nothing new is taken for a duplicate.
 */
import { LOAD_PROFILES, protocol } from '@iot/contract';
import mqtt, { type MqttClient } from 'mqtt';
import { AirSwitchState, type SimulatedAirSwitch } from './air-switch.js';
import type { Random, SimulatorLog } from './types.js';

export interface AirSwitchFleetOptions {
  brokerUrl: string;
  devices: SimulatedAirSwitch[];
  /** Telemetry interval, s (default 10). */
  intervalS?: number;
  log?: SimulatorLog;
  random?: Random;
}

/** A running air switch, seen from outside. */
export interface AirSwitchDevice {
  readonly serial: string;
  readonly state: AirSwitchState;
  readonly connected: boolean;
}

export interface AirSwitchFleet {
  devices: AirSwitchDevice[];
  /** Starts more switches (registered later as simulated); known serials are skipped. */
  add(devices: SimulatedAirSwitch[]): void;
  stop(): Promise<void>;
}

class AirSwitchRunner implements AirSwitchDevice {
  readonly serial: string;
  private seq: number;
  private client: MqttClient | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(readonly state: AirSwitchState, private readonly device: SimulatedAirSwitch, private readonly options: AirSwitchFleetOptions) {
    this.serial = device.serial;
    this.seq = (device.lastSeq ?? -1) + 1;
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  start(delayMs: number): void {
    this.timer = setTimeout(() => this.connect(), delayMs);
  }

  private connect(): void {
    this.timer = undefined;
    const client = mqtt.connect(this.options.brokerUrl, {
      protocolVersion: 4, clientId: this.serial, username: this.serial, password: this.device.secret, clean: false, keepalive: 60, reconnectPeriod: 2000,
    });
    this.client = client;
    client.on('connect', (connack) => {
      if (!connack.sessionPresent) client.subscribe(protocol.airSwitchDownlinkTopic(this.serial), { qos: 1 }, () => {});
      if (!this.timer) this.report();
    });
    client.on('message', (_topic, payload) => this.handle(payload));
    client.on('error', (error) => this.options.log?.debug?.({ serial: this.serial, err: error.message }, 'simulated air switch: mqtt error'));
  }

  private report(): void {
    const intervalMs = (this.options.intervalS ?? 10) * 1000;
    this.timer = setTimeout(() => this.report(), intervalMs);
    if (this.client?.connected) this.publish(this.state.tick());
  }

  private publish(uplinks: { type: string; data: object }[]): void {
    for (const uplink of uplinks) {
      const seq = this.seq++;
      const message = { msgId: `${this.serial}:${seq}`, seq, type: uplink.type, ts: Date.now(), data: uplink.data };
      this.client?.publish(protocol.airSwitchUplinkTopic(this.serial), JSON.stringify(message), { qos: 1 }, () => {});
    }
  }

  private handle(payload: Buffer): void {
    let message: protocol.AirSwitchDownlinkMessage;
    try {
      message = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    const data = message.data as { circuit: number; on?: boolean; thresholds?: object };
    const uplinks: { type: string; data: object }[] = [];
    let code = 0;
    if (message.type === 'switch') {
      const event = this.state.switch(data.circuit, Boolean(data.on));
      if (event) uplinks.push(event, ...this.state.tick().filter((u) => u.type === 'telemetry'));
      else code = 4;
    } else if (message.type === 'thresholds' && data.thresholds) {
      uplinks.push({ type: 'configReport', data: { circuit: data.circuit, thresholds: data.thresholds } });
    } else {
      code = 1;
    }
    uplinks.push({ type: 'commandResult', data: { commandMsgId: message.msgId, code } });
    setTimeout(() => this.publish(uplinks), 200); // a relay takes a moment
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    const client = this.client;
    if (client) await Promise.race([client.endAsync(false).catch(() => {}), new Promise((resolve) => setTimeout(resolve, 2000))]);
  }
}

/** Starts the switches (profiles office, shop, residence in turn), connects spread over a second. */
export function startAirSwitchFleet(options: AirSwitchFleetOptions): AirSwitchFleet {
  const random = options.random ?? Math.random;
  const runners: AirSwitchRunner[] = [];
  const add = (devices: SimulatedAirSwitch[]) => {
    for (const device of devices) {
      if (runners.some((r) => r.serial === device.serial)) continue;
      const profile = device.profile ?? LOAD_PROFILES[runners.length % LOAD_PROFILES.length] ?? 'office';
      const runner = new AirSwitchRunner(new AirSwitchState(device, profile, random), device, options);
      runners.push(runner);
      runner.start(random() * 1000);
    }
  };
  add(options.devices);
  options.log?.info({ airSwitches: runners.length, brokerUrl: options.brokerUrl }, 'simulated air switches starting');
  return {
    devices: runners,
    add,
    async stop() {
      await Promise.all(runners.map((runner) => runner.stop()));
    },
  };
}
