/**
 * Behaviour of one simulated ZIGUANG lock, free of any transport: what it reports and when it drops
 * off the network. The fleet (fleet.ts) drives it over MQTT. Later issues add downlink handling
 * (commands, NB-IoT sleep windows) here.
 */
import { protocol } from '@iot/contract';
import type { VendorKey } from '@iot/contract/firmware-signing';
import { type ActivityEvent, type ActivityRates, LockActivity } from './activity.js';
import { type Answer, applyDownlink } from './commands.js';
import { LockState } from './lock-state.js';
import { INVENTORY_EVERY_MS, inventoryEvent, keypadAddPassword } from './inventory.js';
import { OfflineCodes } from './offline-codes.js';
import { type AttemptInput, type AttemptResult, attemptEvents, attemptOpen } from './open-attempt.js';
import { LockOta, type OtaAction, type OtaBehaviour } from './ota.js';
import { BATTERY_FLOOR, clamp, type LockBehaviour, RSSI_RANGE, SNR_RANGE } from './behaviour.js';
import { randomInt } from './random.js';
import type { Random, SimulatedDevice } from './types.js';

export type HeartbeatMessage = Extract<protocol.UplinkMessage, { type: 'heartbeat' }>;
/** Any uplink other than a heartbeat. */
export type EventMessage = Exclude<protocol.UplinkMessage, HeartbeatMessage>;

/** The firmware a simulated lock reports when the platform knows none (registered in the console, never heard from). */
export const FACTORY_FIRMWARE = 'V1.0.0';

export { BATTERY_FLOOR, type LockBehaviour, RSSI_RANGE, SNR_RANGE } from './behaviour.js';

export class SimulatedLock {
  readonly imei: string;
  readonly device: SimulatedDevice;
  /** Reporting interval, s. */
  readonly intervalS: number;
  /** Whether this lock drops off the network now and then. */
  readonly flaky: boolean;
  /** Seq of the last heartbeat produced (the next one is seq + 1). */
  seq: number;
  /** % */
  battery: number;
  /** dBm */
  rssi: number;
  /** dB, one decimal. */
  snr: number;
  firmwareVersion: string;
  /** Downlink payloads received, newest last (kept short); commands are a later issue. */
  readonly downlinks: unknown[] = [];
  /** Configuration, clock and credential tables the downlinks change (lock-state.ts). */
  readonly state: LockState;
  /** Answers to recent downlinks by msgId: a redelivered command is answered again, not applied twice. */
  private readonly answered = new Map<string, Answer>();
  private readonly random: Random;
  private readonly behaviour: Required<LockBehaviour>;
  /** Unlocks, door movements, alarms (activity.ts); undefined: heartbeats only. */
  private readonly activity: LockActivity | undefined;
  /** Firmware downloads and updates (ota.ts). */
  readonly ota: LockOta;
  /** When the last inventory was sent (at least daily), ms. */
  private inventoryAt = Date.now();

  /** `intervalS` overrides device.heartbeatIntervalS. */
  /** `vendorKeys`: firmware signing keys the lock trusts (default: the demo vendor key). */
  constructor(device: SimulatedDevice, options: { random?: Random; intervalS?: number; behaviour?: LockBehaviour; activity?: Partial<ActivityRates>; ota?: OtaBehaviour; vendorKeys?: readonly VendorKey[] } = {}) {
    this.random = options.random ?? Math.random;
    const random = this.random;
    this.behaviour = {
      flakyRatio: 0.05, offlineProbability: 0.1, offlineIntervals: [3, 6], lowBatteryRatio: 0.1, drainProbability: 0.02,
      ...options.behaviour,
    };
    this.device = device;
    this.imei = device.imei;
    this.intervalS = options.intervalS ?? device.heartbeatIntervalS;
    // Flaky (now and then off the network) only an NB-IoT lock: an always-online lock stays connected, so a
    // remote unlock reaches it within seconds. The draw is made either way: seeded runs stay the same.
    this.flaky = random() < this.behaviour.flakyRatio && device.alwaysOnline !== true;
    this.seq = device.lastSeq ?? 0;
    this.battery = device.battery ?? (random() < this.behaviour.lowBatteryRatio ? randomInt(random, 8, 20) : randomInt(random, 60, 100));
    this.rssi = randomInt(random, -105, -70);
    this.snr = Math.round((random() * 20 - 2) * 10) / 10;
    this.firmwareVersion = device.firmwareVersion || FACTORY_FIRMWARE; // a lock registered in the console has reported none yet
    this.state = new LockState(device.model, this.intervalS, 0, device.capacity, device.access);
    if (device.tables) this.state.load(device.tables);
    if (device.offlineCodeKey) this.state.offlineCodes = new OfflineCodes(Buffer.from(device.offlineCodeKey, 'hex'));
    this.activity = options.activity ? new LockActivity(random, options.activity) : undefined;
    this.ota = new LockOta(random, options.ota, { model: device.model, vendorKeys: options.vendorKeys });
  }

  /** The firmware transfer's part of a downlink (otaNotify, otaChunk, otaAbort): what to do; undefined for any other payload. */
  otaDownlink(payload: Buffer): OtaAction[] | undefined {
    let message: { type?: unknown; data?: unknown };
    try {
      message = JSON.parse(payload.toString('utf8'));
    } catch {
      return undefined;
    }
    const type = message.type as protocol.OtaDownlinkType;
    if (!protocol.OTA_DOWNLINK_TYPES.includes(type) || typeof message.data !== 'object' || message.data === null) return undefined;
    try {
      return this.ota.handle(type, message.data as Record<string, unknown>, this.firmwareVersion);
    } catch {
      return []; // a malformed transfer message is ignored; the lock asks again
    }
  }

  /** After a reboot: the flashed version, if the flash took. */
  rebooted(): void {
    if (this.ota.pendingVersion) this.firmwareVersion = this.ota.pendingVersion;
    this.ota.pendingVersion = undefined;
  }

  /** Wraps an event in the envelope with the next seq (shared with heartbeats, so strictly increasing). `now`: ms. */
  nextUplink(event: ActivityEvent, now: number = Date.now()): EventMessage {
    this.seq += 1;
    return { msgId: `${this.imei}:${this.seq}`, seq: this.seq, ts: now, ...event } as EventMessage;
  }

  /** Uplinks to send right after (re)connecting: one configReport when activity is on. */
  eventsOnConnect(now: number = Date.now()): EventMessage[] {
    return this.activity ? [this.nextUplink({ type: 'configReport', data: { config: this.state.config } }, now)] : [];
  }

  /** Uplinks to send right after a heartbeat (activity.ts; none when activity is off), and the daily inventory. */
  eventsAfterHeartbeat(now: number = Date.now()): EventMessage[] {
    const events = this.activity?.afterHeartbeat(this.battery, now) ?? [];
    if (now - this.inventoryAt >= INVENTORY_EVERY_MS) events.push(this.inventory('daily', now));
    return events.map((event) => this.nextUplink(event, now));
  }

  /** The inventory event (inventory.ts), remembered as sent at `now`. */
  inventory(reason: 'change' | 'request' | 'daily', now: number = Date.now()): ActivityEvent {
    this.inventoryAt = now;
    return inventoryEvent(this.state, reason);
  }

  /** A code added at the keypad (demo / tests): its slot and uplinks, or undefined when refused. */
  keypadAdd(digits: string, now: number = Date.now()): { slot: number; uplinks: EventMessage[] } | undefined {
    const added = keypadAddPassword(this.state, digits);
    if (added) this.inventoryAt = now;
    return added && { slot: added.slot, uplinks: added.events.map((event) => this.nextUplink(event, now)) };
  }

  /**
   * Someone tries to open the door (open-attempt.ts): the lock decides with what it holds and reports
   * an openRecord uplink (and a duress alarm, a disposed user). `now`: platform clock, ms; the lock's
   * clock (or `input.at`) is used for validity, schedules and lockTime.
   */
  attemptOpen(input: AttemptInput, now: number = Date.now()): { result: AttemptResult; uplinks: EventMessage[] } {
    const lockTime = input.at ?? this.state.now(now);
    const { result, effects } = attemptOpen(this.state, input, lockTime);
    return { result, uplinks: attemptEvents(input.method, lockTime, result, effects).map((event) => this.nextUplink(event, now)) };
  }

  /** Advances the readings and returns the next heartbeat (seq strictly increasing). `now`: ms since epoch. */
  nextHeartbeat(now: number = Date.now()): HeartbeatMessage {
    const random = this.random;
    this.seq += 1;
    if (this.battery > BATTERY_FLOOR && random() < this.behaviour.drainProbability) this.battery -= 1;
    this.rssi = clamp(this.rssi + randomInt(random, -3, 3), RSSI_RANGE.min, RSSI_RANGE.max);
    this.snr = clamp(Math.round((this.snr + (random() * 2 - 1)) * 10) / 10, SNR_RANGE.min, SNR_RANGE.max);
    return {
      msgId: `${this.imei}:${this.seq}`,
      seq: this.seq,
      type: 'heartbeat',
      ts: now,
      data: {
        battery: this.battery,
        rssi: this.rssi,
        snr: this.snr,
        firmwareVersion: this.firmwareVersion,
        intervalS: this.intervalS,
      },
    };
  }

  /** Called after each heartbeat: how many intervals the lock now stays offline (0: it stays online). */
  offlineIntervalsAfterHeartbeat(): number {
    if (!this.flaky || this.random() >= this.behaviour.offlineProbability) return 0;
    const [min, max] = this.behaviour.offlineIntervals;
    return randomInt(this.random, min, max);
  }

  /**
   * A message arrived on `zg/{imei}/down`: recorded (last 20), applied to `state` (commands.ts) and
   * answered. Returns what to send (none for a payload that is not a downlink message). A msgId seen
   * before gets its first answer again and is not applied twice (QoS 1 redelivery, platform retries).
   */
  handleDownlink(payload: Buffer, now: number = Date.now()): Answer[] {
    let message: unknown;
    try {
      message = JSON.parse(payload.toString('utf8'));
    } catch {
      message = payload.toString('utf8');
    }
    this.downlinks.push(message);
    if (this.downlinks.length > 20) this.downlinks.shift();
    const parsed = protocol.downlinkMessage.safeParse(message);
    if (!parsed.success) return [];
    const known = this.answered.get(parsed.data.msgId);
    if (known) return [{ ...known, delayMs: 0 }];
    const answer = applyDownlink(this.state, parsed.data, now);
    this.answered.set(parsed.data.msgId, answer);
    if (this.answered.size > 100) this.answered.delete(this.answered.keys().next().value as string);
    return [answer];
  }
}
