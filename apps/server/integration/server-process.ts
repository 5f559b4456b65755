/**
 * The real server (`apps/server/src/main.ts`) as a child process in its own process group (tsx leaves
 * an npm/sh/node chain; known-good.md), for the integration tests: start, SIGTERM (graceful) or
 * SIGKILL of the whole group, and its stdout/stderr lines (pino JSON) for assertions.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { constants, publicEncrypt } from 'node:crypto';
import { join } from 'node:path';
import getPort from 'get-port';

/** Polls `predicate` every `everyMs` ms (default 20) until true; throws `timed out waiting for <what>` after `ms` ms. */
export async function waitUntil(predicate: () => boolean | Promise<boolean>, ms: number, what: string, everyMs = 20): Promise<void> {
  const end = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Signs in through the HTTP API of a running server at `base` (RSA-OAEP encrypted password, as the
 * console does; the captcha is off in startServer) and returns the zw_paas_token.
 * Defaults: the administrator with startServer's ADMIN_PASSWORD, tenant 100. A 503 (the server shedding
 * load while it starts on a busy machine) is sent again after its Retry-After, as the console does, for
 * up to 30 s; any other refusal throws with the server's answer.
 */
export async function signInOverHttp(base: string, username = 'admin', password = 'integration-admin', tenantId = 100): Promise<string> {
  const key = (await (await fetchUnlessShed(`${base}/oauth/key`)).json()).data;
  const encrypted = publicEncrypt({ key: key.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(password)).toString('base64');
  const response = await fetchUnlessShed(`${base}/oauth/token`, {
    method: 'POST', headers: { 'content-type': 'application/json', tenantId: String(tenantId) },
    body: JSON.stringify({ username, password: encrypted, keyId: key.keyId }),
  });
  const body = await response.json();
  if (!body.data?.access_token) throw new Error(`sign-in refused: ${response.status} ${JSON.stringify(body)}`);
  return body.data.access_token;
}

/** `fetch`, sent again while the answer is 503 (after its Retry-After, at most 1 s), for up to 30 s. */
async function fetchUnlessShed(url: string, init?: RequestInit): Promise<Response> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await fetch(url, init);
    if (response.status !== 503 || Date.now() > deadline) return response;
    await response.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, Math.min(1000, Number(response.headers.get('retry-after') ?? 0) * 1000 || 200)));
  }
}

/** A TCP port free on 127.0.0.1 right now (get-port). */
export const freePort = () => getPort({ host: '127.0.0.1' });

const root = join(import.meta.dirname, '../../..');

export interface ServerProcess {
  readonly pid: number;
  /** Every line printed so far (stdout and stderr). */
  readonly lines: string[];
  /** Parsed pino lines whose `msg` equals `message`. */
  logs(message: string): Record<string, unknown>[];
  /** SIGTERM to the group; waits up to `ms` (default 15,000) for the exit, then SIGKILLs. */
  stop(ms?: number): Promise<void>;
  /** SIGKILL to the whole group, at once; resolves when the main process is gone. */
  kill9(): Promise<void>;
}

/**
 * Starts main.ts (or with `compiled`, the built dist/main.js) with `env` on top of safe defaults (127.0.0.1, no simulated locks, captcha off);
 * resolves once it printed "is running", rejects (after killing it) when it exits or takes > `timeoutMs`.
 */
export async function startServer(env: Record<string, string>, timeoutMs = 60_000, options: { compiled?: boolean } = {}): Promise<ServerProcess> {
  // compiled: the production build (apps/server/dist/main.js, `npm run build`), signals straight to node.
  const [command, args] = options.compiled
    ? [process.execPath, ['--enable-source-maps', join(root, 'apps/server/dist/main.js')]]
    : [join(root, 'node_modules/.bin/tsx'), [join(root, 'apps/server/src/main.ts')]];
  const child: ChildProcess = spawn(command, args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env, HOST: '127.0.0.1', SIM_LOCKS: '0', AUTH_CAPTCHA: 'off', LOG_LEVEL: 'info',
      ADMIN_PASSWORD: 'integration-admin', OPERATOR_PASSWORD: 'integration-operator', DATABASE_URL: '', MQTT_URL: '', ...env,
    },
  });
  const pid = child.pid as number;
  const lines: string[] = [];
  let partial = '';
  const onData = (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const parts = text.split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // already gone
    }
  };
  /** The node process running main.ts: tsx's child, or the compiled server itself. */
  const serverPid = (): number => {
    const children = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean).map(Number);
    return children[0] ?? pid;
  };
  const server: ServerProcess = {
    pid,
    lines,
    logs: (message) => lines.flatMap((line) => {
      if (!line.startsWith('{')) return [];
      try {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        return parsed.msg === message ? [parsed] : [];
      } catch {
        return [];
      }
    }),
    async stop(ms = 15_000) {
      // SIGTERM to the server itself only: tsx relays a signal it receives, so a SIGTERM to the whole
      // group reached the server twice, and close-with-grace exits at once on a second one.
      const server = serverPid();
      try {
        process.kill(server, 'SIGTERM');
      } catch {
        // already gone
      }
      const timer = setTimeout(() => killGroup('SIGKILL'), ms);
      await exited;
      clearTimeout(timer);
      killGroup('SIGKILL'); // leftovers of the npm/sh/node chain
    },
    async kill9() {
      killGroup('SIGKILL');
      await exited;
    },
  };
  const started = Date.now();
  while (!lines.some((line) => line.includes('is running'))) {
    const gone = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 100))]);
    if (gone || Date.now() - started > timeoutMs) {
      await server.kill9();
      throw new Error(`server ${gone ? 'exited' : 'did not start'}:\n${lines.slice(-30).join('\n')}`);
    }
  }
  return server;
}
