/**
 * A throw-away Mosquitto 2 (Debian's binary) on a free 127.0.0.1 port for the integration tests:
 * password file (hashed by `mosquitto_passwd -U`), the ACL of docs/deploy.md (devices on their own
 * topics, the platform account on the shared uplink subscription and every downlink), no persistence,
 * max_queued_messages raised so a busy platform subscriber loses nothing (known-good.md).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server-process.js';

const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((path) => existsSync(path));
const PASSWD = ['/usr/bin/mosquitto_passwd', '/usr/sbin/mosquitto_passwd'].find((path) => existsSync(path));

/** Whether the binaries are here; the caller skips (or fails under CI) without them. */
export const mosquittoAvailable = Boolean(MOSQUITTO && PASSWD);

export interface Mosquitto {
  port: number;
  /** The broker's process id (benchmarks read its memory and CPU). */
  pid: number;
  /** mqtt://user:pass@127.0.0.1:port (URL-encoded). */
  url(username?: string, password?: string): string;
  /** Stops the broker (SIGTERM, then SIGKILL after 3 s) and removes its folder. */
  stop(): Promise<void>;
}

/** The ACL file: `platform` accounts read the uplinks and write the downlinks; devices only their own topics. */
export function aclFile(platformUsers: string[]): string {
  return [
    ...platformUsers.flatMap((user) => [`user ${user}`, 'topic read zg/+/up', 'topic read $share/platform/zg/+/up', 'topic write zg/+/down', '']),
    '# every other account is a lock: username = IMEI',
    'pattern write zg/%u/up',
    'pattern read zg/%u/down',
    '',
  ].join('\n');
}

/**
 * Starts mosquitto with `users` (name -> password) on `options.port` (default: a free one). Resolves
 * once it accepts TCP connections.
 */
export async function startMosquitto(users: Map<string, string>, platformUsers: string[], options: { port?: number } = {}): Promise<Mosquitto> {
  if (!MOSQUITTO || !PASSWD) throw new Error('mosquitto not installed (apt-get install mosquitto mosquitto-clients)');
  const dir = mkdtempSync(join(tmpdir(), 'iot-mosquitto-'));
  const port = options.port ?? (await freePort());
  const passwd = join(dir, 'passwd');
  writeFileSync(passwd, `${[...users].map(([user, password]) => `${user}:${password}`).join('\n')}\n`, { mode: 0o600 });
  execFileSync(PASSWD, ['-U', passwd]);
  writeFileSync(join(dir, 'acl'), aclFile(platformUsers));
  const isRoot = process.getuid?.() === 0;
  writeFileSync(join(dir, 'mosquitto.conf'), [
    `listener ${port} 127.0.0.1`,
    'allow_anonymous false',
    `password_file ${passwd}`,
    `acl_file ${join(dir, 'acl')}`,
    'max_queued_messages 100000',
    'max_inflight_messages 100',
    'persistence false',
    'log_dest stderr',
    'log_type error',
    'log_type warning',
    ...(isRoot ? ['user root'] : []), // a throw-away broker on 127.0.0.1; its files stay readable
    '',
  ].join('\n'));
  const child: ChildProcess = spawn(MOSQUITTO, ['-c', join(dir, 'mosquitto.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await canConnect(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`mosquitto did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    pid: child.pid as number,
    url: (username, password) =>
      `mqtt://${username ? `${encodeURIComponent(username)}:${encodeURIComponent(password ?? '')}@` : ''}127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}
