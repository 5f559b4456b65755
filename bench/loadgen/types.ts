/**
 * The shapes shared by the load generator's coordinator and workers: what a worker is asked to hold
 * (FleetOptions) and what it reports (FleetCounters).
 */
import type { Backoff } from './schedule.js';

export interface FleetOptions {
  host: string;
  port: number;
  imeis: string[];
  /** Last stored seq per IMEI (the next uplink uses seq + 1), same order. */
  lastSeqs: number[];
  /** Index of the first IMEI in the whole fleet (spreads the readings). */
  offset: number;
  heartbeatMs: number;
  /** +- fraction of heartbeatMs (schedule.ts nextHeartbeatAt). */
  jitter: number;
  /** MQTT keep-alive, s; a due lock that does not heartbeat sends PINGREQ instead. */
  keepaliveS: number;
  backoff: Backoff;
  /** CONNECTs awaiting their CONNACK at most, so a worker does not open 10,000 sockets in one turn. */
  maxConnecting: number;
  /**
   * Source addresses used in turn (e.g. 127.0.0.2-5): one address has only the ephemeral port range
   * (about 28,000 ports) towards one broker port. Default: the system's choice.
   */
  localAddresses?: string[];
}

/** Counters since the start; `connected` and `pending` are current values. */
export interface FleetCounters {
  connected: number; connects: number; refused: number; closes: number; sent: number; acked: number;
  commands: number; answered: number; answersAcked: number; pings: number; pending: number;
}

/** All counters at zero. */
export const zeroCounters = (): FleetCounters => ({ connected: 0, connects: 0, refused: 0, closes: 0, sent: 0, acked: 0, commands: 0, answered: 0, answersAcked: 0, pings: 0, pending: 0 });
