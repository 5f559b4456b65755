/**
 * What bench/connections.ts loads, behind one interface: the server with its embedded broker, the
 * server behind Debian's mosquitto (MQTT_URL, per-device passwords and the ACL of docs/deploy.md via
 * apps/server/integration/mosquitto.ts), or bare aedes (the broker library alone: the baseline of
 * memory and CPU). Fixed ports: HTTP 3201, embedded MQTT 1893, mosquitto 1884.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { type Mosquitto, startMosquitto } from '../../apps/server/integration/mosquitto.js';
import { type ServerProcess, startServer } from '../../apps/server/integration/server-process.js';
import { cpuMs } from '../cpu.js';
import { nodeChild } from './measure.js';
import { loadgenSecret } from './messages.js';

export type Kind = 'aedes' | 'embedded' | 'mosquitto';

export interface UnderTest {
  name: string;
  /** Where the locks connect. */
  port: number;
  /** The process holding the locks' sockets (server node, mosquitto, aedes). */
  brokerPid(): number;
  /** The server's node process; undefined for bare aedes. */
  serverPid(): number | undefined;
  /** CPU time so far, ms: the server (tsx and node) and a separate broker process (mosquitto, aedes; else 0). */
  cpu(): { server: number; broker: number };
  /** Stops and starts the broker (the server when embedded), every socket dropped; resolves when it accepts again. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const PLATFORM_PASSWORD = 'bench-platform-secret';

async function server(databaseUrl: string, extra: Record<string, string> = {}): Promise<ServerProcess> {
  // No load shedding (MAX_EVENT_LOOP_DELAY_MS=0): a connect storm is what is measured, not refused.
  return startServer({ DATABASE_URL: databaseUrl, PORT: '3201', MQTT_PORT: '1893', LOG_LEVEL: 'warn', MAX_EVENT_LOOP_DELAY_MS: '0', ...extra }, 180_000);
}

/** Bare aedes in its own process (bare-aedes.ts); resolves once it listens. */
async function bareAedes(port: number): Promise<ChildProcess> {
  // node with tsx's loader, not the tsx binary: one process, so a kill leaves no child holding the port.
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'bare-aedes.ts'), String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => { if (chunk.toString().includes('listening')) resolve(); });
    child.once('exit', () => reject(new Error('bare aedes exited')));
  });
  return child;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Starts `kind` on the database at `databaseUrl` (unused for aedes) with broker accounts for `imeis`. */
export async function startUnderTest(kind: Kind, databaseUrl: string, imeis: string[]): Promise<UnderTest> {
  if (kind === 'aedes') {
    let child = await bareAedes(1893);
    return {
      name: 'bare aedes (baseline)', port: 1893, brokerPid: () => child.pid as number, serverPid: () => undefined,
      cpu: () => ({ server: 0, broker: cpuMs(child.pid as number) }),
      async restart() { await stopChild(child); child = await bareAedes(1893); },
      stop: () => stopChild(child),
    };
  }
  if (kind === 'embedded') {
    let current = await server(databaseUrl);
    return {
      name: 'server, embedded broker', port: 1893, brokerPid: () => nodeChild(current.pid), serverPid: () => nodeChild(current.pid),
      cpu: () => ({ server: cpuMs(current.pid, true), broker: 0 }),
      async restart() { await current.stop(); current = await server(databaseUrl); },
      stop: () => current.stop(),
    };
  }
  const users = new Map([['platform', PLATFORM_PASSWORD], ...imeis.map((imei) => [imei, loadgenSecret(imei)] as [string, string])]);
  let broker: Mosquitto = await startMosquitto(users, ['platform'], { port: 1884 });
  const app = await server(databaseUrl, { MQTT_URL: broker.url('platform', PLATFORM_PASSWORD), MQTT_CLIENT_ID: 'platform-bench' });
  return {
    name: 'server behind mosquitto', port: 1884, brokerPid: () => broker.pid, serverPid: () => nodeChild(app.pid),
    cpu: () => ({ server: cpuMs(app.pid, true), broker: cpuMs(broker.pid) }),
    async restart() { await broker.stop(); broker = await startMosquitto(users, ['platform'], { port: 1884 }); },
    async stop() { await app.stop(); await broker.stop(); },
  };
}
