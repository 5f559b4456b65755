/**
 * API test helper (fastify/demo test/helper.ts style): builds the real app on a fresh database
 * (PGlite in memory, or a new database in the suite's throw-away PostgreSQL), migrated and seeded, and signs in
 * through the real RSA-OAEP flow.
 */
import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ERRORS, TOKEN_HEADER } from '@iot/contract';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { type Database, openDatabase } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { seedDemo } from '../src/demo/seed.js';

export const ADMIN_PASSWORD = 'admin-test-password';
export const OPERATOR_PASSWORD = 'operator-test-password';
export const isPostgres = process.env.TEST_DATABASE === 'postgres';
/** True when this project cannot run here (no PostgreSQL server binaries outside CI). */
export const skipSuite = isPostgres && !inject('postgresUrl');

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** The PostgreSQL database's URL (api-postgres), to open a second instance on it. */
  databaseUrl?: string;
  close(): Promise<void>;
}

/**
 * The URL of a new PostgreSQL database of the test server (api-postgres only): empty, or a copy of the
 * database named `template`.
 */
export async function freshPostgresUrl(template?: string): Promise<string> {
  const adminUrl = inject('postgresUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  return adminUrl.replace(/\/postgres$/, `/${name}`);
}

/**
 * A new database, already migrated: a copy of the migrated template the project's global setup made
 * (pglite-global.ts, postgres-global.ts), so a file does not pay initdb and every migration again.
 */
export async function newDatabase(): Promise<Database & { url?: string }> {
  if (!isPostgres) {
    const template = inject('pgliteTemplate');
    return openDatabase({ dataDir: 'memory://', loadDataDir: template ? new Blob([await readFile(template)]) : undefined });
  }
  const url = await freshPostgresUrl(inject('postgresTemplate'));
  return Object.assign(await openDatabase({ databaseUrl: url, dataDir: '' }), { url });
}

/**
 * A second app on the database of `ctx`, as a second server instance (api-postgres: its own
 * connections and listener on the same database; api-pglite: the same handle, one process).
 */
export async function secondInstance(ctx: TestContext, overrides: Partial<Config> = {}): Promise<Omit<TestContext, 'databaseUrl'>> {
  const config = { ...ctx.config, ...overrides };
  const database = ctx.databaseUrl ? await openDatabase({ databaseUrl: ctx.databaseUrl, dataDir: '' }) : ctx.database;
  const app = await buildApp({ config, database });
  await app.ready();
  return {
    app, database, config,
    close: async () => {
      await app.close();
      if (database !== ctx.database) await database.close();
    },
  };
}

/** Builds a migrated, seeded app with `simLocks` demo locks (no gateway). */
export async function createTestContext(overrides: Partial<Config> = {}, simLocks = 10): Promise<TestContext> {
  // DEMO on: the API tests use demo accounts and locks and the simulated keypad route, on either database.
  // No load shedding: PGlite's initdb blocks this shared event loop for seconds (lifecycle.test.ts tests it).
  const config = loadConfig({}, { AUTH_CAPTCHA: false, LOG_LEVEL: (process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent', WEB_DIST: '/nonexistent', DEMO: true, MAX_EVENT_LOOP_DELAY_MS: 0, ...overrides });
  const database = await newDatabase();
  await migrateDatabase(database);
  await seedDemo(database, { adminPassword: ADMIN_PASSWORD, operatorPassword: OPERATOR_PASSWORD, simLocks });
  const app = await buildApp({ config, database });
  const violations = checkResponsesAgainstContract(app);
  await app.ready();
  return {
    app, database, config, databaseUrl: database.url,
    close: async () => {
      await app.close();
      await database.close();
      if (violations.length > 0) throw new Error(`responses that break the contract:\n${violations.join('\n')}`);
    },
  };
}

const errorEnvelope = z.strictObject({
  success: z.literal(false), code: z.enum(Object.keys(ERRORS) as [keyof typeof ERRORS]), message: z.string(), data: z.null(),
  errors: z.array(z.strictObject({ field: z.string(), message: z.strictObject({ 'zh-CN': z.string(), 'en-US': z.string() }) })).optional(),
});

/** A payment provider's failure answer (WeChat Pay notification routes). */
const providerFailure = z.strictObject({ code: z.literal('FAIL'), message: z.string() });

/**
 * Every API test's responses are parsed with the contract (one place for all of them): a success
 * with the route's endpoint response schema (inside the envelope unless the route answers raw), a
 * failure with the error envelope. A response that does not parse becomes a 500 and is listed when
 * the context closes, so the server cannot drift from what the web and /openapi.json promise.
 */
function checkResponsesAgainstContract(app: FastifyInstance): string[] {
  const violations: string[] = [];
  app.addHook('onSend', async (request, reply, payload) => {
    const { endpoint, response } = request.routeOptions.config;
    const json = String(reply.getHeader('content-type') ?? '').startsWith('application/json');
    if (response?.kind === 'provider' && reply.statusCode === 204) return payload;
    if (!endpoint || response?.kind === 'file' || !json || typeof payload !== 'string') return payload; // files (CSV, Excel) are checked by their tests
    const body = JSON.parse(payload);
    const parsed = response?.kind === 'provider' && reply.statusCode >= 400 && body?.code === 'FAIL' ? providerFailure.safeParse(body)
      : reply.statusCode >= 400 ? errorEnvelope.safeParse(body)
      : response?.kind === 'raw' ? endpoint.response.safeParse(body)
      : z.strictObject({ success: z.literal(true), code: z.literal('OK'), message: z.string(), data: endpoint.response }).safeParse(body);
    if (!parsed.success) {
      const problem = `${request.method} ${request.url} ${reply.statusCode}: ${z.prettifyError(parsed.error)}`;
      violations.push(problem);
      throw new Error(problem);
    }
    return payload;
  });
  return violations;
}

/**
 * For a test that writes sessions, roles or memberships with SQL, behind the owner modules (so no
 * event tells the principal cache): the app reads principals again, as it would once the cache's
 * lifetime (PRINCIPAL_CACHE_MS, 5 s) is over.
 */
export function forgetPrincipals(app: FastifyInstance): void {
  app.principals.clear();
}

/** Encrypts a password as the browser does: base64(RSA-OAEP-SHA-256). */
export async function encryptPassword(app: FastifyInstance, password: string): Promise<{ password: string; keyId: string }> {
  const key = (await app.inject({ method: 'GET', url: '/oauth/key' })).json().data;
  const cipher = publicEncrypt({ key: key.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(password));
  return { password: cipher.toString('base64'), keyId: key.keyId };
}

/** Signs in; returns the raw response. */
export async function signInResponse(app: FastifyInstance, username: string, password: string, extra: Record<string, unknown> = {}, tenantId = 100) {
  const encrypted = await encryptPassword(app, password);
  return app.inject({ method: 'POST', url: '/oauth/token', headers: { tenantId: String(tenantId) }, payload: { username, ...encrypted, ...extra } });
}

/** Signs in and returns the access token; throws on failure. */
export async function signIn(app: FastifyInstance, username = 'admin', password = ADMIN_PASSWORD): Promise<string> {
  const response = await signInResponse(app, username, password);
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.body}`);
  return response.json().data.access_token;
}

/** A token call: adds zw_paas_token and tenantId headers. */
export function call(app: FastifyInstance, token: string, options: InjectOptions & { tenantId?: number }): Promise<LightMyRequestResponse> {
  const { tenantId = 100, headers, ...rest } = options;
  return app.inject({ ...rest, headers: { [TOKEN_HEADER]: token, tenantId: String(tenantId), ...headers } }) as Promise<LightMyRequestResponse>;
}

/** Expects a JSON success envelope and returns its data; throws with the body otherwise. */
// biome-ignore lint/suspicious/noExplicitAny: a test reads the data it asserts on
export function dataOf(response: LightMyRequestResponse): any {
  if (response.statusCode !== 200) throw new Error(`expected 200, got ${response.statusCode}: ${response.body}`);
  return response.json().data;
}

/** Creates an operator through the API (as `token`, in `tenantId`); returns its id. */
export async function addAccount(app: FastifyInstance, token: string, username: string, password: string, tenantId = 100): Promise<number> {
  const payload = { username, ...(await encryptPassword(app, password)) };
  return dataOf(await call(app, token, { method: 'POST', url: '/v1/account/add/user', payload, tenantId })).id;
}

/** Creates a role through the API; returns its id. */
export async function addRole(app: FastifyInstance, token: string, name: string, authorities: string[], tenantId = 100): Promise<number> {
  const payload = { name, description: '', authorities };
  return dataOf(await call(app, token, { method: 'POST', url: '/v1/sysRole/add', payload, tenantId })).id;
}

/** Binds roles through the API. */
export async function bindRoles(app: FastifyInstance, token: string, accountId: number, roleIds: number[], tenantId = 100): Promise<void> {
  dataOf(await call(app, token, { method: 'POST', url: '/v1/sysUserRole/bind', payload: { accountId, roleIds }, tenantId }));
}

/** Creates an operator holding `authorities` in tenant 100 through the API and signs it in; returns id and token. */
export async function operatorWith(app: FastifyInstance, adminToken: string, username: string, authorities: string[]) {
  const password = `${username}-password-1`;
  const id = await addAccount(app, adminToken, username, password);
  const roleId = await addRole(app, adminToken, `${username}-role`, authorities);
  await bindRoles(app, adminToken, id, [roleId]);
  return { id, roleId, password, token: await signIn(app, username, password) };
}

/** The rows of a raw SQL result on either driver. */
export async function rowsOf<T>(result: Promise<unknown>): Promise<T[]> {
  return ((await result) as { rows: T[] }).rows;
}

/** One digest of every row of `tables` (compare before and after a refused call). */
export async function tableChecksum(database: Database, tables: readonly string[]): Promise<string> {
  const parts = tables.map((table) => `(select coalesce(md5(string_agg(t::text, '|' order by t::text)), '-') from "${table}" t)`);
  const [row] = await rowsOf<{ digest: string }>(database.system.execute(sql.raw(`select ${parts.join(" || ':' || ")} as digest`)));
  return String(row?.digest);
}
