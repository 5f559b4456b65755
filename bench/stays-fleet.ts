/**
 * The sleeping locks of bench/stays.ts, in their own process so their CPU never counts as the
 * platform's: @iot/simulator's fleet of NB-IoT locks that sleep between heartbeats (a wake every
 * `heartbeatS` s, awake `wakeWindowMs` after each uplink; connects spread over one interval so the
 * wakes are too). Driven over IPC: parent -> { devices, url, heartbeatS, wakeWindowMs }; child ->
 * { ready } once every lock has had a heartbeat acknowledged; parent -> 'stop': the fleet stops.
 */
import { type SimulatedDevice, startFleet } from '@iot/simulator';

interface Job { devices: SimulatedDevice[]; url: string; heartbeatS: number; wakeWindowMs: number }

const job = await new Promise<Job>((resolve) => process.once('message', (m) => resolve(m as Job)));
const fleet = await startFleet({
  brokerUrl: job.url, devices: job.devices.map((d) => ({ ...d, battery: 80, alwaysOnline: false })), heartbeatS: job.heartbeatS,
  wakeWindowMs: job.wakeWindowMs, behaviour: { flakyRatio: 0, drainProbability: 0 }, connectPerSecond: Math.max(10, Math.ceil(job.devices.length / job.heartbeatS)),
});
while (!fleet.devices.every((device) => device.acked > 0)) await new Promise((resolve) => setTimeout(resolve, 200));
process.send?.({ ready: true });
await new Promise((resolve) => process.once('message', resolve));
await fleet.stop();
process.exit(0);
