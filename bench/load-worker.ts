/**
 * Load generator of bench/ingest.ts (locks) and bench/airswitch.ts (air switches), in its own process
 * so it does not share the broker's event loop: one MQTT 3.1.1 connection per device (client id =
 * username = IMEI or serial, its secret), each keeping `window` QoS 1 messages unacknowledged for
 * `durationMs`, then draining: a lock's heartbeats, or an air switch's telemetry of 4 circuits
 * (counters that grow). Driven over IPC:
 * parent -> { kind, devices, url, window, durationMs }; child -> { ready, connectMs } ; parent -> 'go';
 * child -> { windowAcked, windowMs } then { sent, acked, drained } and exits.
 */
import { protocol } from '@iot/contract';
import { type SimulatedDevice, SimulatedLock } from '@iot/simulator';
import mqtt, { type MqttClient } from 'mqtt';

/** A bench air switch: its serial, secret and next seq. */
interface AirSwitchDevice { serial: string; secret: string; seq: number }
type Job = { url: string; window: number; durationMs: number } & ({ kind?: 'lock'; devices: SimulatedDevice[] } | { kind: 'airSwitch'; devices: AirSwitchDevice[] });
/** What the worker needs of a device: its MQTT identity, uplink topic and next message. */
interface Source { id: string; secret: string; topic: string; next(): unknown }

function lockSource(device: SimulatedDevice): Source {
  const lock = new SimulatedLock(device, { intervalS: 60, behaviour: { flakyRatio: 0 } });
  return { id: device.imei, secret: device.secret, topic: protocol.uplinkTopic(device.imei), next: () => lock.nextHeartbeat() };
}

function airSwitchSource(device: AirSwitchDevice): Source {
  return {
    id: device.serial, secret: device.secret, topic: protocol.airSwitchUplinkTopic(device.serial),
    next() {
      const seq = device.seq++;
      const circuits = [1, 2, 3, 4].map((circuit) => ({
        circuit, voltage: 228.4, current: 4.1, power: 900 + circuit * 10, powerFactor: 0.95, energyKwh: 100 + seq * 0.0025 * circuit,
        leakageMa: 2, temperatureC: 35, state: 'on',
      }));
      return { msgId: `${device.serial}:${seq}`, seq, type: 'telemetry', ts: Date.now(), data: { circuits } };
    },
  };
}

const send = (message: unknown) => process.send?.(message);
const job = await new Promise<Job>((resolve) => process.once('message', (m) => resolve(m as Job)));
const started = Date.now();
let publishing = false;
let sent = 0;
let acked = 0;
let inflight = 0;
const sources = job.kind === 'airSwitch' ? job.devices.map(airSwitchSource) : job.devices.map(lockSource);
const clients: MqttClient[] = await Promise.all(sources.map((source) => mqtt.connectAsync(job.url, {
  protocolVersion: 4, clientId: source.id, username: source.id, password: source.secret, clean: true,
  keepalive: 120, connectTimeout: 60_000, reconnectPeriod: 0,
})));
send({ ready: true, connectMs: Date.now() - started });
await new Promise((resolve) => process.once('message', resolve));

function publish(index: number): void {
  if (!publishing) return;
  const source = sources[index] as Source;
  sent++;
  inflight++;
  (clients[index] as MqttClient).publish(source.topic, JSON.stringify(source.next()), { qos: 1 }, (error) => {
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
