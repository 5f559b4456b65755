/**
 * Live stream benchmark (budget: an event reaches an open SSE stream in <= 1 s p99 with 200
 * streams open). The compiled server runs in its own process (PGlite data dir, embedded broker) with
 * BENCH_SSE_LOCKS locks beating every second as background load; this process holds the streams
 * (fetch) and one simulated lock that raises and clears a tamper alarm over MQTT every 1.5 s (longer
 * than the stream's 1 s coalescing window, so no alarm waits for a window). Latency: from the MQTT
 * publish to the `lock.alarm` message on each stream (one clock: this process).
 * Rounds interleave 1 stream (the baseline of the same run) and BENCH_SSE_STREAMS streams; prints
 * p50 / p99 / max per mode, the ratio of the p99s, the server's CPU per alarm and the load average.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { protocol } from '@iot/contract';
import { SimulatedLock } from '@iot/simulator';
import mqtt from 'mqtt';
import { provisionLocks, startLoad } from '../apps/server/integration/devices.js';
import { freePort, signInOverHttp, startServer } from '../apps/server/integration/server-process.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { type LiveClient, openLive } from '../apps/server/test/sse-client.js';
import { cpuMs } from './cpu.js';

const STREAMS = Number(process.env.BENCH_SSE_STREAMS ?? 200);
const LOCKS = Number(process.env.BENCH_SSE_LOCKS ?? 100);
const ALARMS_PER_ROUND = Number(process.env.BENCH_SSE_ALARMS ?? 10);
const ROUNDS = 3;
const ALARM_GAP_MS = 1500;
const BUDGET_P99_MS = 1000;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

const dataDir = mkdtempSync(join(tmpdir(), 'iot-bench-sse-'));
const database = await openDatabase({ dataDir });
const devices = await provisionLocks(database, LOCKS + 1);
await database.close();
const build = spawnSync(process.execPath, [join(import.meta.dirname, '../scripts/server-build.mjs')], { encoding: 'utf8' });
if (build.status !== 0) throw new Error(build.stderr);
const port = await freePort();
const mqttPort = await freePort();
const server = await startServer({ DATA_DIR: dataDir, PORT: String(port), MQTT_PORT: String(mqttPort), LOG_LEVEL: 'warn' }, 120_000, { compiled: true });
const base = `http://127.0.0.1:${port}`;
const [alarmDevice, ...fleet] = devices as [(typeof devices)[number], ...typeof devices];
const load = startLoad({ url: `mqtt://127.0.0.1:${mqttPort}`, devices: fleet, window: 1, ratePerS: 1, maxPerDevice: 1_000_000 });
const lock = new SimulatedLock(alarmDevice, { intervalS: 60, behaviour: { flakyRatio: 0 } });
const client = mqtt.connect(`mqtt://127.0.0.1:${mqttPort}`, { protocolVersion: 4, clientId: alarmDevice.imei, username: alarmDevice.imei, password: alarmDevice.secret, clean: false });
await new Promise<void>((resolve, reject) => { client.once('connect', () => resolve()); client.once('error', reject); });
const token = await signInOverHttp(base);

const results: Record<'one' | 'many', number[]> = { one: [], many: [] };
const cpu: Record<'one' | 'many', { ms: number; alarms: number }> = { one: { ms: 0, alarms: 0 }, many: { ms: 0, alarms: 0 } };
let cleared = true;
let missing = 0;
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of ['one', 'many'] as const) {
      const streams: LiveClient[] = await Promise.all(Array.from({ length: mode === 'one' ? 1 : STREAMS }, () => openLive(base, { token, tenantId: 100 })));
      await Promise.all(streams.map((s) => s.next((m) => m.event === 'ready', 30_000)));
      const before = cpuMs(server.pid, true);
      for (let i = 0; i < ALARMS_PER_ROUND; i++) {
        cleared = !cleared;
        const seen = streams.map((s) => s.messages.length);
        const message = lock.nextUplink({ type: 'alarm', data: { kind: 'tamper', cleared } });
        const sentAt = performance.now();
        client.publish(protocol.uplinkTopic(alarmDevice.imei), JSON.stringify(message), { qos: 1 });
        const arrivals = await Promise.all(streams.map((s, n) => s.next((m) => m.event === 'lock.alarm' && m.data.kind === 'tamper' && m.data.cleared === cleared, 10_000, seen[n])
          .then((m) => m.at - sentAt, () => undefined)));
        for (const ms of arrivals) {
          if (ms === undefined) missing += 1;
          else results[mode].push(ms);
        }
        await new Promise((resolve) => setTimeout(resolve, ALARM_GAP_MS));
      }
      cpu[mode].ms += cpuMs(server.pid, true) - before;
      cpu[mode].alarms += ALARMS_PER_ROUND;
      for (const s of streams) s.close();
    }
  }
} finally {
  await load.end();
  await client.endAsync(true);
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const line = (mode: 'one' | 'many', label: string) => {
  const values = results[mode];
  const perAlarmCpu = cpu[mode].ms / cpu[mode].alarms;
  return `${label}: ${values.length} deliveries, p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms; server CPU ${perAlarmCpu.toFixed(0)} ms per ${(ALARM_GAP_MS / 1000).toFixed(1)} s alarm period`;
};
const p99 = percentile(results.many, 99);
console.log(`live stream, ${LOCKS} locks beating every second, a tamper alarm every ${ALARM_GAP_MS} ms, ${ROUNDS} interleaved rounds of ${ALARMS_PER_ROUND} alarms (load average ${loadavg().map((v) => v.toFixed(1)).join(' ')})`);
console.log(line('one', '  1 stream (baseline)'));
console.log(line('many', `  ${STREAMS} streams`));
console.log(`  p99 ratio ${STREAMS} streams / 1 stream: ${(p99 / percentile(results.one, 99)).toFixed(2)}x; missing deliveries: ${missing}`);
const met = p99 <= BUDGET_P99_MS && missing === 0;
console.log(`  budget p99 <= ${BUDGET_P99_MS} ms with ${STREAMS} streams, none missing: ${met ? 'met' : 'MISSED'}`);
process.exit(met ? 0 : 1);
