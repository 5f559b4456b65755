/**
 * Locks for the integration tests: provisioning (migrate, demo seed with `n` simulated locks, fresh
 * secrets) and a load of raw MQTT 3.1.1 device clients publishing QoS 1 heartbeats as fast as the
 * broker acknowledges them, recording every (imei, seq) whose PUBACK arrived; optionally answering the
 * platform's commands as the simulated lock would, counting how often each command's msgId arrived.
 */
import { protocol } from '@iot/contract';
import { type SimulatedDevice, SimulatedLock } from '@iot/simulator';
import mqtt, { type MqttClient } from 'mqtt';
import type { Database } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { seedDemo } from '../src/demo/seed.js';
import { issueSimulatorCredentials } from '../src/modules/lockDevice/credentials.js';

/** Migrates, seeds `n` simulated locks and returns their (fresh) credentials. */
export async function provisionLocks(database: Database, n: number): Promise<SimulatedDevice[]> {
  await migrateDatabase(database);
  await seedDemo(database, { simLocks: n, adminPassword: 'integration-admin', operatorPassword: 'integration-operator' });
  return issueSimulatorCredentials(database);
}

export interface LoadOptions {
  /** mqtt://host:port (no credentials: each lock uses its own). */
  url: string;
  devices: SimulatedDevice[];
  /** Unacknowledged heartbeats per lock at most (default 5). */
  window?: number;
  /** Heartbeats per lock at most (default 10,000). */
  maxPerDevice?: number;
  /** Reconnect period of the locks, ms (default 300). */
  reconnectMs?: number;
  /** Heartbeats per second per lock at most (default: unlimited, only the window limits). */
  ratePerS?: number;
  /** Subscribe to the lock's downlink topic and answer each command (a commandResult uplink, QoS 1). */
  answerCommands?: boolean;
}

export interface Load {
  /** imei -> seqs whose PUBACK arrived. */
  acked: Map<string, Set<number>>;
  /** Command msgId -> how many times it arrived at its lock (answerCommands). */
  downlinks: Map<string, number>;
  /** Heartbeats published (first sends, not resends). */
  sent(): number;
  ackedCount(): number;
  /** Publishes no further heartbeats; resends still happen. */
  stopPublishing(): void;
  /** Waits until every published heartbeat is acknowledged; false after `ms`. */
  drain(ms: number): Promise<boolean>;
  /** Closes every client at once. */
  end(): Promise<void>;
}

/** Connects every device (clean session off, client id = username = IMEI) and starts publishing. */
export function startLoad(options: LoadOptions): Load {
  const window = options.window ?? 5;
  const max = options.maxPerDevice ?? 10_000;
  const acked = new Map<string, Set<number>>();
  const downlinks = new Map<string, number>();
  let sent = 0;
  let ackedCount = 0;
  let publishing = true;
  const runners = options.devices.map((device) => {
    const lock = new SimulatedLock(device, { intervalS: 60, behaviour: { flakyRatio: 0 } });
    const seqs = new Set<number>();
    acked.set(device.imei, seqs);
    const state = { inflight: 0, count: 0, started: false, next: 0, timer: undefined as NodeJS.Timeout | undefined };
    const gapMs = options.ratePerS ? 1000 / options.ratePerS : 0;
    const client: MqttClient = mqtt.connect(options.url, {
      protocolVersion: 4, clientId: device.imei, username: device.imei, password: device.secret,
      clean: false, keepalive: 30, connectTimeout: 5000, reconnectPeriod: options.reconnectMs ?? 300,
    });
    const publishOne = () => {
      if (!publishing || state.count >= max || state.timer) return;
      const wait = state.next - Date.now();
      if (wait > 0) {
        state.timer = setTimeout(() => {
          state.timer = undefined;
          publishOne();
        }, wait);
        return;
      }
      state.next = Math.max(state.next, Date.now() - 100) + gapMs;
      const message = lock.nextHeartbeat();
      state.count++;
      state.inflight++;
      sent++;
      client.publish(protocol.uplinkTopic(device.imei), JSON.stringify(message), { qos: 1 }, (error) => {
        state.inflight--;
        if (!error) {
          seqs.add(message.seq);
          ackedCount++;
        }
        if (state.inflight < window) publishOne();
      });
      if (state.inflight < window) publishOne();
    };
    client.on('connect', () => {
      if (options.answerCommands) client.subscribe(protocol.downlinkTopic(device.imei), { qos: 1 });
      if (state.started) return;
      state.started = true;
      publishOne();
    });
    client.on('error', () => {});
    client.on('message', (_topic, payload) => {
      let msgId = '';
      try {
        msgId = (JSON.parse(payload.toString('utf8')) as { msgId?: string }).msgId ?? '';
      } catch {
        /* not JSON: counted under '' and left to handleDownlink, which answers nothing */
      }
      downlinks.set(msgId, (downlinks.get(msgId) ?? 0) + 1);
      for (const answer of lock.handleDownlink(payload)) {
        client.publish(protocol.uplinkTopic(device.imei), JSON.stringify(lock.nextUplink({ type: 'commandResult', data: answer.result })), { qos: 1 });
      }
    });
    return { client, state };
  });
  return {
    acked,
    downlinks,
    sent: () => sent,
    ackedCount: () => ackedCount,
    stopPublishing: () => {
      publishing = false;
      for (const r of runners) clearTimeout(r.state.timer);
    },
    async drain(ms) {
      const end = Date.now() + ms;
      while (runners.some((r) => r.state.inflight > 0)) {
        if (Date.now() > end) return false;
        await new Promise((r) => setTimeout(r, 50));
      }
      return true;
    },
    async end() {
      publishing = false;
      for (const r of runners) clearTimeout(r.state.timer);
      await Promise.all(runners.map((r) => r.client.endAsync(true).catch(() => {})));
    },
  };
}

/** Rows of an execute() result (PGlite and node-postgres both return `{ rows }`). */
export function rows<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
