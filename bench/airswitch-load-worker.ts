/**
 * Load generator of bench/airswitch.ts (own process): one MQTT 3.1.1 connection per air switch (client
 * id = username = serial), each keeping `window` QoS 1 telemetry messages of 4 circuits unacknowledged
 * for `durationMs` (counters that grow), then draining. IPC as bench/load-worker.ts:
 * parent -> { devices, url, window, durationMs }; child -> { ready, connectMs }; parent -> 'go';
 * child -> { windowAcked, windowMs } then { sent, acked, drained }.
 */
import { protocol } from '@iot/contract';
import mqtt, { type MqttClient } from 'mqtt';

interface Job { devices: { serial: string; secret: string; seq: number }[]; url: string; window: number; durationMs: number }

const send = (message: unknown) => process.send?.(message);
const job = await new Promise<Job>((resolve) => process.once('message', (m) => resolve(m as Job)));
const started = Date.now();
let publishing = false;
let sent = 0;
let acked = 0;
let inflight = 0;
const clients = await Promise.all(job.devices.map((d) => mqtt.connectAsync(job.url, {
  protocolVersion: 4, clientId: d.serial, username: d.serial, password: d.secret, clean: true, keepalive: 120, connectTimeout: 60_000, reconnectPeriod: 0,
})));
send({ ready: true, connectMs: Date.now() - started });
await new Promise((resolve) => process.once('message', resolve));

function publish(index: number): void {
  if (!publishing) return;
  const device = job.devices[index] as Job['devices'][number];
  const seq = device.seq++;
  const circuits = [1, 2, 3, 4].map((circuit) => ({
    circuit, voltage: 228.4, current: 4.1, power: 900 + circuit * 10, powerFactor: 0.95, energyKwh: 100 + seq * 0.0025 * circuit,
    leakageMa: 2, temperatureC: 35, state: 'on',
  }));
  const message = { msgId: `${device.serial}:${seq}`, seq, type: 'telemetry', ts: Date.now(), data: { circuits } };
  sent++;
  inflight++;
  (clients[index] as MqttClient).publish(protocol.airSwitchUplinkTopic(device.serial), JSON.stringify(message), { qos: 1 }, (error) => {
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
