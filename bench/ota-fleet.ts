/**
 * The simulated locks of bench/ota.ts, in their own process so their CPU never counts as the
 * platform's: @iot/simulator's fleet (always online, heartbeats every `heartbeatS` s, the lock side of
 * OTA with no failures). Driven over IPC: parent -> { devices, url, heartbeatS, version };
 * child -> { connected } once every lock is up, then every 500 ms -> { updated } (locks running
 * `version`); parent -> 'stop': the fleet disconnects and the process exits.
 */
import { type SimulatedDevice, startFleet } from '@iot/simulator';

interface Job { devices: SimulatedDevice[]; url: string; heartbeatS: number; version: string }

const send = (message: unknown) => process.send?.(message);
const job = await new Promise<Job>((resolve) => process.once('message', (m) => resolve(m as Job)));
const fleet = await startFleet({
  brokerUrl: job.url, devices: job.devices.map((d) => ({ ...d, battery: 80, alwaysOnline: true })), heartbeatS: job.heartbeatS,
  behaviour: { flakyRatio: 0, drainProbability: 0 }, ota: { failureRate: 0 }, connectPerSecond: 200,
});
while (!fleet.devices.every((device) => device.connected)) await new Promise((resolve) => setTimeout(resolve, 100));
send({ connected: true });
const timer = setInterval(() => send({ updated: fleet.devices.filter((device) => device.lock.firmwareVersion === job.version).length }), 500);
await new Promise((resolve) => process.once('message', resolve));
clearInterval(timer);
await fleet.stop();
process.exit(0);
