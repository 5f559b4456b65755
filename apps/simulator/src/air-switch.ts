/**
 * A simulated air switch (docs/protocol.md "Air switches"): circuits whose load follows a
 * daily profile (office, shop, residence) with noise, energy counters that only grow (by power x time),
 * occasional trips (over-current) and leakage events, and breakers that really cut the load: a switched-off
 * or tripped circuit draws 0 W and its counter stands still. Pure state: air-switch-runner.ts speaks MQTT.
 */
import type { LOAD_PROFILES, protocol } from '@iot/contract';
import type { Random } from './types.js';

export type LoadProfile = (typeof LOAD_PROFILES)[number];

/** What the simulator needs to impersonate one air switch (issued by modules/airSwitch/registry.ts). */
export interface SimulatedAirSwitch {
  serial: string;
  secret: string;
  tenantId: number;
  circuits: number;
  lastSeq: number | null;
  /** Daily load profile (default: office, shop, residence in turn). */
  profile?: LoadProfile;
}

/** Share of a circuit's peak load per hour of the local day (0-23), by profile. */
const PROFILES: Record<LoadProfile, readonly number[]> = {
  office: [0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.1, 0.3, 0.8, 0.95, 1, 1, 0.7, 0.9, 1, 1, 0.95, 0.8, 0.4, 0.15, 0.1, 0.05, 0.05, 0.05],
  shop: [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.15, 0.3, 0.7, 0.9, 0.95, 1, 1, 0.95, 0.95, 1, 1, 1, 0.95, 0.9, 0.6, 0.2, 0.1],
  residence: [0.2, 0.15, 0.15, 0.15, 0.15, 0.2, 0.45, 0.7, 0.5, 0.3, 0.25, 0.3, 0.45, 0.35, 0.25, 0.25, 0.3, 0.55, 0.85, 1, 0.95, 0.8, 0.55, 0.3],
};

/** Chance per reading that a circuit trips on over-current / raises a leakage warning (a few a day at 10 s). */
export const TRIP_CHANCE = 1 / 20_000;
export const LEAK_CHANCE = 1 / 10_000;

interface Circuit {
  circuit: number;
  peakW: number;
  state: protocol.SwitchState;
  tripReason?: protocol.TripReason;
  energyKwh: number;
  leakageMa: number;
  leaking: boolean;
}

type Uplink = { type: string; data: object };

export class AirSwitchState {
  readonly circuits: Circuit[];
  private lastAt: number;

  constructor(readonly device: SimulatedAirSwitch, readonly profile: LoadProfile, private readonly random: Random, now = Date.now(), private readonly utcOffsetH = 8) {
    this.circuits = Array.from({ length: device.circuits }, (_, i) => ({
      circuit: i + 1, peakW: 800 + Math.round(random() * 3200), state: 'on', energyKwh: Math.round(random() * 5000) / 10, leakageMa: 2, leaking: false,
    }));
    this.lastAt = now;
  }

  /** Load of a switched-on circuit now, W. */
  loadW(circuit: Circuit, now: number): number {
    const hour = new Date(now + this.utcOffsetH * 3600_000).getUTCHours();
    const share = PROFILES[this.profile][hour] ?? 0.5;
    return Math.max(0, circuit.peakW * share * (0.85 + this.random() * 0.3));
  }

  /** Advances counters to `now` and returns the telemetry plus any switchEvent / alarm uplinks that happened. */
  tick(now = Date.now()): Uplink[] {
    const hours = Math.max(0, (now - this.lastAt) / 3600_000);
    this.lastAt = now;
    const events: Uplink[] = [];
    const readings = this.circuits.map((c) => {
      let power = c.state === 'on' ? this.loadW(c, now) : 0;
      if (c.state === 'on' && this.random() < TRIP_CHANCE) {
        c.state = 'tripped';
        c.tripReason = 'overCurrent';
        power = 0;
        events.push({ type: 'switchEvent', data: { circuit: c.circuit, state: 'tripped', reason: 'overCurrent', source: 'protection' } });
      }
      if (!c.leaking && this.random() < LEAK_CHANCE) {
        c.leaking = true;
        c.leakageMa = 22 + Math.round(this.random() * 8);
        events.push({ type: 'alarm', data: { circuit: c.circuit, kind: 'leakageWarn', value: c.leakageMa } });
      } else if (c.leaking && this.random() < 0.05) {
        c.leaking = false;
        c.leakageMa = 2;
        events.push({ type: 'alarm', data: { circuit: c.circuit, kind: 'leakageWarn', cleared: true } });
      }
      c.energyKwh += (power / 1000) * hours;
      const voltage = 220 + this.random() * 15;
      return {
        circuit: c.circuit, voltage: round(voltage, 1), current: round(power / voltage / 0.95, 2), power: round(power, 1), powerFactor: 0.95,
        energyKwh: round(c.energyKwh, 4), leakageMa: c.leakageMa, temperatureC: round(30 + power / 200, 1), state: c.state,
        ...(c.state === 'tripped' ? { tripReason: c.tripReason } : {}),
      };
    });
    return [...events, { type: 'telemetry', data: { circuits: readings } }];
  }

  /** Applies a switch command; returns the switchEvent it causes (undefined for an unknown circuit). */
  switch(circuit: number, on: boolean): Uplink | undefined {
    const c = this.circuits.find((x) => x.circuit === circuit);
    if (!c) return undefined;
    c.state = on ? 'on' : 'off';
    c.tripReason = undefined;
    return { type: 'switchEvent', data: { circuit, state: c.state, source: 'remote' } };
  }
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
