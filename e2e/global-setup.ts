/**
 * E2E global setup: starts the real server (`apps/server/src/main.ts`) in its own process group on a
 * free port, with a fresh PGlite data directory, the embedded broker on a free port, captcha off and
 * known passwords, and 10 simulated NB-IoT locks with a 2 s wake window (WAKE_WINDOW_MS, for the
 * dispatcher and the locks alike): nine beat every 2 s with busy activity, so they never sleep and
 * the log pages fill; one (E2E_SLEEPING_IMEI) beats every 10 s and truly sleeps ~8 s between its wake
 * windows, for the command outbox test. Beside them 2 always-online 4G Cat.1 locks (SIM_ONLINE_LOCKS,
 * E2E_ONLINE_IMEI first) for the remote unlock test. Single sign-on against a real OpenID
 * provider started here (oidc-provider, apps/server/test/oidc-provider-support.ts): any login name
 * signs in; E2E_SSO_LOGIN is in group E2E_SSO_GROUP. Provides `baseUrl`; stops the whole process group
 * and the provider afterwards.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import getPort from 'get-port';
import type { TestProject } from 'vitest/node';
import { CLIENT_ID, CLIENT_SECRET, startProvider } from '../apps/server/test/oidc-provider-support.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

export const E2E_ADMIN_PASSWORD = 'e2e-admin-password';
export const E2E_OPERATOR_PASSWORD = 'e2e-operator-password';
/** Wake window of the server's dispatcher and its simulated locks, ms. */
export const E2E_WAKE_WINDOW_MS = 2000;
/** The one simulated lock that sleeps between heartbeats, and its heartbeat interval, s (10: the config form's minimum). */
export const E2E_SLEEPING_IMEI = '861234500000001';
export const E2E_SLEEPING_HEARTBEAT_S = 10;
/** The first always-online (4G Cat.1, ZG-4G300) simulated lock, data centre 100 (remote unlock). */
export const E2E_ONLINE_IMEI = '861234590000000';

/** The provider's login name of the single sign-on test, its group, and the button's name. */
export const E2E_SSO_LOGIN = 'e2e-sso-person';
export const E2E_SSO_GROUP = 'e2e-sso-group';
export const E2E_SSO_NAME = 'E2E IdP';

export default async function setup(project: TestProject) {
  const root = join(import.meta.dirname, '..');
  const dataDir = mkdtempSync(join(tmpdir(), 'iot-e2e-'));
  const port = await getPort({ host: '127.0.0.1' });
  const redirectUri = `http://127.0.0.1:${port}/api/login`;
  const idp = await startProvider({ [E2E_SSO_LOGIN]: { groups: [E2E_SSO_GROUP] } }, redirectUri);
  const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, MQTT_PORT: '0', SIM_LOCKS: '10', SIM_ONLINE_LOCKS: '2', SIM_AIR_SWITCH_INTERVAL_S: '10',
      SIM_HEARTBEAT_S: '2', SIM_HEARTBEAT_S_BY_IMEI: `${E2E_SLEEPING_IMEI}:${E2E_SLEEPING_HEARTBEAT_S}`, WAKE_WINDOW_MS: String(E2E_WAKE_WINDOW_MS),
      SIM_OUTAGES: 'off', SIM_ACTIVITY: 'high', AUTH_CAPTCHA: 'off', ADMIN_PASSWORD: E2E_ADMIN_PASSWORD, OPERATOR_PASSWORD: E2E_OPERATOR_PASSWORD,
      LOG_LEVEL: 'warn', DATABASE_URL: '', MQTT_URL: '',
      OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET, OIDC_REDIRECT_URI: redirectUri, OIDC_DISPLAY_NAME: E2E_SSO_NAME,
      OIDC_SCOPES: 'openid profile groups',
    },
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 90 s:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('is running')) { clearTimeout(timer); resolve(); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}:\n${output}`)); });
  });
  child.removeAllListeners('exit');
  // The server's warnings and errors (pino JSON at LOG_LEVEL=warn) reach the run's output, so a
  // flaky browser failure in CI comes with what the server said at the time.
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) process.stderr.write(`[server] ${line.slice(0, 2000)}\n`);
  });
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(`[server] ${chunk}`));
  project.provide('baseUrl', `http://127.0.0.1:${port}`);
  return async () => {
    try { process.kill(-(child.pid as number), 'SIGTERM'); } catch { /* already gone */ }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    try { process.kill(-(child.pid as number), 'SIGKILL'); } catch { /* already gone */ }
    rmSync(dataDir, { recursive: true, force: true });
    await idp.close();
  };
}
