/**
 * Load generator of bench/ingest.ts, in its own process so it does not share the broker's event loop:
 * one MQTT 3.1.1 connection per lock (client id = username = IMEI, its secret), each keeping `window`
 * QoS 1 heartbeats unacknowledged for `durationMs`, then draining. Driven over IPC:
 * parent -> { devices, url, window, durationMs }; child -> { ready, connectMs } ; parent -> 'go';
 * child -> { windowAcked, windowMs } then { sent, acked, drained } and exits.
 */
import { protocol } from '@iot/contract';
import { type SimulatedDevice, SimulatedLock } from '@iot/simulator';
import mqtt, { type MqttClient } from 'mqtt';

interface Job { devices: SimulatedDevice[]; url: string; window: number; durationMs: number }

const send = (message: unknown) => process.send?.(message);
const job = await new Promise<Job>((resolve) => process.once('message', (m) => resolve(m as Job)));
const started = Date.now();
let publishing = false;
let sent = 0;
let acked = 0;
let inflight = 0;
const clients: MqttClient[] = [];
const locks = job.devices.map((d) => new SimulatedLock(d, { intervalS: 60, behaviour: { flakyRatio: 0 } }));

await Promise.all(job.devices.map(async (device, index) => {
  const client = await mqtt.connectAsync(job.url, {
    protocolVersion: 4, clientId: device.imei, username: device.imei, password: device.secret, clean: true,
    keepalive: 120, connectTimeout: 60_000, reconnectPeriod: 0,
  });
  clients[index] = client;
}));
send({ ready: true, connectMs: Date.now() - started });
await new Promise((resolve) => process.once('message', resolve));

function publish(index: number): void {
  if (!publishing) return;
  const client = clients[index] as MqttClient;
  const lock = locks[index] as SimulatedLock;
  const message = lock.nextHeartbeat();
  sent++;
  inflight++;
  client.publish(protocol.uplinkTopic(lock.imei), JSON.stringify(message), { qos: 1 }, (error) => {
    inflight--;
    if (!error) acked++;
    publish(index);
  });
}

publishing = true;
const windowStart = Date.now();
for (let w = 0; w < job.window; w++) for (let i = 0; i < clients.length; i++) publish(i);
await new Promise((resolve) => setTimeout(resolve, job.durationMs));
const windowAcked = acked;
const windowMs = Date.now() - windowStart;
publishing = false;
send({ windowAcked, windowMs });
const drainEnd = Date.now() + 20_000;
while (inflight > 0 && Date.now() < drainEnd) await new Promise((resolve) => setTimeout(resolve, 20));
send({ sent, acked, drained: inflight === 0 });
await Promise.all(clients.map((c) => c.endAsync(true).catch(() => {})));
process.exit(0);
