/**
 * A throw-away HAProxy (Debian's `haproxy` package) on a free 127.0.0.1 port in front of several
 * server instances, for the cluster tests: round robin, health checks on `/readyz` every 500 ms, a
 * refused connection dispatched to another instance, long-lived streams (server-sent events) kept open
 * by `timeout tunnel`, and the answering instance's name in the `x-served-by` header.
 * docs/deploy.md "Several instances" shows the same settings for a real deployment.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitUntil } from './server-process.js';

const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((path) => existsSync(path));

/** Whether the binary is here; the caller skips (or fails under CI) without it. */
export const haproxyAvailable = Boolean(HAPROXY);

export interface Balancer {
  /** http://127.0.0.1:port */
  url: string;
  /** Stops HAProxy (SIGTERM, then SIGKILL after 3 s) and removes its folder. */
  stop(): Promise<void>;
}

/** The configuration for `servers` (name -> port on 127.0.0.1), listening on `port`. */
export function haproxyConfig(port: number, servers: Map<string, number>): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout tunnel 1h',
    '  option redispatch',
    '  retries 3',
    'frontend console',
    `  bind 127.0.0.1:${port}`,
    '  default_backend platform',
    'backend platform',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    '  http-response set-header x-served-by %[srv_name]',
    ...[...servers].map(([name, serverPort]) => `  server ${name} 127.0.0.1:${serverPort} check inter 500 fall 2 rise 2`),
    '',
  ].join('\n');
}

/** Starts HAProxy in the foreground; resolves once every server passed its health check. */
export async function startHaproxy(servers: Map<string, number>): Promise<Balancer> {
  if (!HAPROXY) throw new Error('haproxy not installed (apt-get install haproxy)');
  const dir = mkdtempSync(join(tmpdir(), 'iot-haproxy-'));
  const port = await freePort();
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig(port, servers));
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk) => { output += chunk; });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await new Promise((resolve) => child.once('exit', resolve));
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // Every instance answers through the balancer: as many distinct x-served-by as servers.
  const seen = new Set<string>();
  try {
    await waitUntil(async () => {
      if (child.exitCode !== null) throw new Error(`haproxy exited: ${output}`);
      const response = await fetch(`${url}/readyz`).catch(() => undefined);
      const name = response?.headers.get('x-served-by');
      if (response?.status === 200 && name) seen.add(name);
      return seen.size === servers.size;
    }, 20_000, 'every instance healthy behind haproxy', 100);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}
