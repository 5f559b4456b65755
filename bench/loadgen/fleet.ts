/**
 * The locks one worker process holds (worker.ts): plain net sockets speaking MQTT 3.1.1 through
 * mqtt-packet, one small object per lock, one TimerWheel swept every SWEEP_MS for heartbeats,
 * keep-alive pings and reconnects. Per lock: CONNECT (client id = username = IMEI, its own password,
 * clean session off, as the simulator connects), SUBSCRIBE to its downlink topic (QoS 1), QoS 1
 * heartbeats, PUBACK and answers to downlinks (messages.ts), unacknowledged uplinks sent again with
 * DUP after a reconnect, and a reconnect with backoff (schedule.ts) when the socket closes.
 */
import { connect, type Socket } from 'node:net';
import { protocol } from '@iot/contract';
import { generate, type Packet, parser } from 'mqtt-packet';
import { type FleetCounters, type FleetOptions, zeroCounters } from './types.js';
import { answerDownlink, heartbeatMessage, loadgenSecret, type Readings, readingsOf } from './messages.js';
import { firstHeartbeatAt, nextHeartbeatAt, reconnectDelayMs, TimerWheel } from './schedule.js';

/** How often the wheel is swept, ms: the heartbeat times' resolution. */
const SWEEP_MS = 50;
/** A CONNECT without CONNACK after this long is dropped and retried, ms. */
const CONNECT_TIMEOUT_MS = 30_000;

const IDLE = 0;
const CONNECTING = 1;
const UP = 2;

interface Lock {
  imei: string; source: string | undefined; seq: number; readings: Readings; state: number; due: number; attempt: number; nextId: number;
  socket: Socket | undefined;
  /** Unacknowledged uplinks by packet id: [packet bytes, 1 for a heartbeat / 0 for an answer]. */
  pending: Map<number, [Buffer, number]> | undefined;
}

export class WorkerFleet {
  readonly counters: FleetCounters = zeroCounters();
  /** Heartbeats are sent only while true; due locks send PINGREQ otherwise. */
  publishing = true;
  private readonly locks: Lock[];
  private readonly wheel = new TimerWheel<Lock>(SWEEP_MS, Date.now());
  private readonly waiting: Lock[] = [];
  private connecting = 0;
  private ended = false;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: FleetOptions) {
    const intervalS = Math.round(options.heartbeatMs / 1000);
    const sources = options.localAddresses ?? [];
    this.locks = options.imeis.map((imei, i) => ({
      imei, source: sources[i % sources.length], seq: options.lastSeqs[i] ?? 0, readings: readingsOf(options.offset + i, intervalS), state: IDLE, due: Infinity, attempt: 0, nextId: 1,
      socket: undefined, pending: undefined,
    }));
    this.waiting.push(...this.locks);
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.pump();
  }

  /** Destroys every socket; no reconnects afterwards. */
  end(): void {
    this.ended = true;
    clearInterval(this.sweeper);
    for (const lock of this.locks) lock.socket?.destroy();
  }

  private sweep(): void {
    const now = Date.now();
    for (const lock of this.wheel.take(now)) {
      if (lock.due > now) continue; // a stale entry: rescheduled later
      lock.due = Infinity;
      if (lock.state === IDLE) this.waiting.push(lock);
      else if (lock.state === UP) this.beat(lock, now);
    }
    this.pump();
  }

  private schedule(lock: Lock, due: number): void {
    lock.due = due;
    this.wheel.add(due, lock);
  }

  private pump(): void {
    while (this.connecting < this.options.maxConnecting && this.waiting.length > 0 && !this.ended) this.open(this.waiting.shift() as Lock);
  }

  private open(lock: Lock): void {
    this.connecting++;
    lock.state = CONNECTING;
    const socket = connect({ port: this.options.port, host: this.options.host, ...(lock.source ? { localAddress: lock.source } : {}) });
    lock.socket = socket;
    socket.setNoDelay(true);
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => socket.destroy());
    const packets = parser({ protocolVersion: 4 });
    packets.on('packet', (packet: Packet) => this.receive(lock, packet));
    packets.on('error', () => socket.destroy());
    socket.on('data', (chunk) => packets.parse(chunk));
    socket.on('error', () => {});
    socket.on('close', () => this.closed(lock, socket));
    const password = Buffer.from(loadgenSecret(lock.imei));
    socket.write(generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clean: false, clientId: lock.imei, username: lock.imei, password, keepalive: this.options.keepaliveS }));
  }

  private closed(lock: Lock, socket: Socket): void {
    if (lock.socket !== socket) return;
    if (lock.state === CONNECTING) this.connecting--;
    else if (lock.state === UP) {
      this.counters.connected--;
      this.counters.closes++;
      lock.attempt = 0;
    }
    lock.state = IDLE;
    lock.socket = undefined;
    if (this.ended) return;
    this.schedule(lock, Date.now() + reconnectDelayMs(lock.attempt++, this.options.backoff, Math.random));
    this.pump();
  }

  private receive(lock: Lock, packet: Packet): void {
    const socket = lock.socket as Socket;
    if (packet.cmd === 'connack') {
      this.connecting--;
      if (packet.returnCode !== 0) {
        this.counters.refused++;
        lock.state = IDLE; // counted; the close reschedules
        socket.destroy();
        return;
      }
      socket.setTimeout(0);
      lock.state = UP;
      this.counters.connected++;
      this.counters.connects++;
      socket.write(generate({ cmd: 'subscribe', messageId: this.packetId(lock), subscriptions: [{ topic: protocol.downlinkTopic(lock.imei), qos: 1 }] }));
      // Uplinks the broker never acknowledged go again, flagged DUP (MQTT 3.1.1 section 4.4).
      for (const [bytes] of lock.pending?.values() ?? []) socket.write(withDup(bytes));
      this.schedule(lock, firstHeartbeatAt(Date.now(), this.options.heartbeatMs, Math.random));
      this.pump();
    } else if (packet.cmd === 'puback') {
      const entry = lock.pending?.get(packet.messageId as number);
      if (!entry) return;
      lock.pending?.delete(packet.messageId as number);
      this.counters.pending--;
      if (entry[1] === 1) this.counters.acked++;
      else this.counters.answersAcked++;
    } else if (packet.cmd === 'publish') {
      if (packet.qos === 1) socket.write(generate({ cmd: 'puback', messageId: packet.messageId as number }));
      this.counters.commands++;
      const now = Date.now();
      const answers = answerDownlink(lock.imei, packet.payload as Buffer, lock.seq + 1, now);
      for (const answer of answers) {
        lock.seq = answer.seq;
        this.counters.answered++;
        this.publish(lock, answer, 0);
      }
    }
  }

  /** A due lock: a heartbeat while publishing, else a PINGREQ; then its next due time. */
  private beat(lock: Lock, now: number): void {
    if (this.publishing) {
      lock.seq++;
      this.counters.sent++;
      this.publish(lock, heartbeatMessage(lock.imei, lock.seq, now, lock.readings), 1);
    } else {
      this.counters.pings++;
      lock.socket?.write(generate({ cmd: 'pingreq' }));
    }
    this.schedule(lock, nextHeartbeatAt(now, this.options.heartbeatMs, this.options.jitter, Math.random));
  }

  private publish(lock: Lock, message: protocol.UplinkMessage, heartbeat: number): void {
    const messageId = this.packetId(lock);
    const bytes = generate({ cmd: 'publish', topic: protocol.uplinkTopic(lock.imei), payload: JSON.stringify(message), qos: 1, messageId, dup: false, retain: false });
    lock.pending ??= new Map();
    lock.pending.set(messageId, [bytes, heartbeat]);
    this.counters.pending++;
    lock.socket?.write(bytes);
  }

  private packetId(lock: Lock): number {
    const id = lock.nextId;
    lock.nextId = id === 65_535 ? 1 : id + 1;
    return id;
  }
}

/** A copy of a PUBLISH packet with its DUP flag set (bit 3 of the fixed header). */
const withDup = (bytes: Buffer): Buffer => Buffer.concat([Buffer.from([(bytes[0] as number) | 0x08]), bytes.subarray(1)]);
