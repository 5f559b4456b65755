/**
 * Authorization matrix built from the server's LIVE route table (app.routeTable, filled by the auth
 * plugin's onRoute hook): every route x (administrator; an account holding the route's key; one
 * lacking it; an account of another tenant; no token) -> allowed or refused, with the database
 * unchanged on every refusal. A route missing from SAMPLES, or declaring another access (or scope)
 * than SAMPLES expects, fails the test. Routes changing platform-wide objects (scope `platform`, issue
 * #31) are refused to every data-centre account, even one holding every key, and allowed to administrators.
 */
import { accessKeys, apiEndpoints, AUTHORITIES } from '@iot/contract';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../src/db/schema.js';
import { keyMayCall } from '../src/http/api-key-auth.js';
import type { RouteInfo } from '../src/http/context.js';
import {
  addAccount, addRole, bindRoles, call, createTestContext, encryptPassword, forgetPrincipals, rowsOf, signIn, skipSuite, tableChecksum, type TestContext,
} from './helper.js';

import { type Fixture, SAMPLES, type Sample } from './access-matrix-samples.js';

/** Tables a refused call may change: its token's last use, and the system log row of the refusal. */
const UNGUARDED_TABLES = ['sessions', 'audit_log'];

describe.skipIf(skipSuite)('authorization matrix over the live route table', () => {
  let ctx: TestContext;
  let fixture: Fixture;
  /** Every other table of the schema: a refused call must leave them as they were. */
  let guarded: string[];
  let probe: { id: number; roleId: number; password: string };
  const tokens: Record<'admin' | 'probe' | 'outsider', string> = { admin: '', probe: '', outsider: '' };

  beforeAll(async () => {
    ctx = await createTestContext({}, 3);
    ctx.app.lifecycle.brokerReady = () => true; // no gateway here: /readyz would answer 503, which is not a refusal
    tokens.admin = await signIn(ctx.app);
    const { app } = ctx;
    const victim = async (name: string) => addAccount(app, tokens.admin, `victim-${name}`, `victim-${name}-password`);
    fixture = {
      victim: { delete: await victim('delete'), password: await victim('password'), enable: await victim('enable'), bind: await victim('bind') },
      role: { update: await addRole(app, tokens.admin, 'm-update', []), delete: await addRole(app, tokens.admin, 'm-delete', []), bind: await addRole(app, tokens.admin, 'm-bind', []) },
      password: await encryptPassword(app, 'matrix-new-password'),
    };
    probe = { id: await addAccount(app, tokens.admin, 'probe', 'probe-password-1'), roleId: await addRole(app, tokens.admin, 'probe-role', []), password: 'probe-password-1' };
    await bindRoles(app, tokens.admin, probe.id, [probe.roleId]);
    tokens.probe = await signIn(app, 'probe', probe.password);
    const outsider = await addAccount(app, tokens.admin, 'outsider', 'outsider-password-1', 101);
    await bindRoles(app, tokens.admin, outsider, [await addRole(app, tokens.admin, 'everything', [...AUTHORITIES], 101)], 101);
    tokens.outsider = await signIn(app, 'outsider', 'outsider-password-1');
    // Tables, not their partitions: a partitioned log is read through its parent (its day partitions, e.g. the
    // system log's, belong to the parent's guarded or unguarded state).
    guarded = (await rowsOf<{ name: string }>(ctx.database.system.execute(sql`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`)))
      .map((row) => row.name).filter((name) => !UNGUARDED_TABLES.includes(name));
    expect(guarded).toEqual(expect.arrayContaining(['accounts', 'account_tenants', 'roles', 'account_roles', 'locks']));
  });
  afterAll(() => ctx?.close());

  const routes = () => ctx.app.routeTable.filter((route) => route.method !== 'HEAD');
  const keyOf = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

  it('has an expectation for every live route and no stale ones; every route declares the expected access', () => {
    const live = routes().map(keyOf);
    expect(live.filter((key) => !(key in SAMPLES))).toEqual([]);
    expect(Object.keys(SAMPLES).filter((key) => !live.includes(key))).toEqual([]);
    for (const route of routes()) expect([keyOf(route), route.access]).toEqual([keyOf(route), SAMPLES[keyOf(route)]?.access]);
    for (const route of routes()) expect([keyOf(route), route.scope]).toEqual([keyOf(route), SAMPLES[keyOf(route)]?.scope]);
    // Every platform-wide route is one the contract declares so (the web hides its controls from the same flag).
    const platform = apiEndpoints.filter((endpoint) => endpoint.scope === 'platform').map((endpoint) => `${endpoint.method} ${endpoint.path}`).sort();
    expect(routes().filter((route) => route.scope === 'platform').map(keyOf).sort()).toEqual(platform);
    // Every GET also answers HEAD, under the same access.
    for (const route of routes().filter((r) => r.method === 'GET')) {
      expect(ctx.app.routeTable.find((r) => r.method === 'HEAD' && r.url === route.url)?.access).toEqual(route.access);
    }
  });

  const send = (method: string, url: string, sample: Sample, token: string | undefined, tenantId = 100) => {
    const query = sample.query?.(fixture);
    const options = {
      method: method as 'GET', url: query ? `${url}?${query}` : url, ...(sample.body ? { payload: sample.body(fixture) } : {}), ...(sample.stream ? { payloadAsStream: true } : {}),
    };
    const response = token ? call(ctx.app, token, { ...options, tenantId }) : ctx.app.inject(options);
    return sample.stream ? response.then(streamed) : response;
  };
  /** A streamed answer as the checks read it: an open stream has no body; a refusal's body is read whole. */
  const streamed = async (response: LightMyRequestResponse): Promise<LightMyRequestResponse> => {
    let body = '';
    if (response.statusCode !== 200) for await (const chunk of response.stream()) body += String(chunk);
    return { statusCode: response.statusCode, headers: response.headers, body, json: () => JSON.parse(body) } as LightMyRequestResponse;
  };
  // Written behind the role module (no event): the principal cache is told, as its lifetime would.
  const setProbe = (authorities: readonly string[]) =>
    ctx.database.system.update(roles).set({ authorities: [...authorities] }).where(eq(roles.id, probe.roleId)).then(() => forgetPrincipals(ctx.app));
  const codeOf = (response: LightMyRequestResponse) => (response.body ? response.json().code : undefined);

  async function expectRefused(label: string, send: () => Promise<LightMyRequestResponse>, code: 'FORBIDDEN' | 'TOKEN_EXPIRED') {
    const before = await tableChecksum(ctx.database, guarded);
    const response = await send();
    expect([label, response.statusCode, codeOf(response)]).toEqual([label, 403, code]);
    expect([label, await tableChecksum(ctx.database, guarded)]).toEqual([label, before]);
  }
  function expectAllowed(label: string, response: LightMyRequestResponse) {
    const code = response.headers['content-type']?.toString().includes('json') ? codeOf(response) : undefined;
    expect([label, response.statusCode < 500, code === 'FORBIDDEN' || code === 'TOKEN_EXPIRED' || code === 'ESCALATION'])
      .toEqual([label, true, false]);
  }

  it('allows exactly the holders of each route\'s authority, refuses everyone else without changing the database', async () => {
    const ordered = routes().sort((a, b) => Number(SAMPLES[keyOf(a)]?.endsSession ?? false) - Number(SAMPLES[keyOf(b)]?.endsSession ?? false));
    for (const route of ordered) {
      const key = keyOf(route);
      const sample = SAMPLES[key] as Sample;
      const keys = accessKeys(route.access);
      const isPublic = route.access === 'public';
      // Refusals first, each compared against the guarded tables.
      if (!isPublic) {
        await expectRefused(`${key} without token`, () => send(route.method, route.url, sample, undefined), 'TOKEN_EXPIRED');
        await expectRefused(`${key} other tenant`, () => send(route.method, route.url, sample, tokens.outsider), 'FORBIDDEN');
        if (route.method === 'GET') {
          const head = await ctx.app.inject({ method: 'HEAD', url: route.url });
          expect([`HEAD ${route.url}`, head.statusCode]).toEqual([`HEAD ${route.url}`, 403]);
        }
      }
      if (keys.length > 0) {
        await setProbe(AUTHORITIES.filter((k) => !keys.includes(k)));
        await expectRefused(`${key} lacking ${keys.join('|')}`, () => send(route.method, route.url, sample, tokens.probe), 'FORBIDDEN');
      }
      // Then every holder (each key of an any-of list on its own; of a platform-wide route: even every key, refused), then the administrator.
      if (sample.scope === 'platform') {
        await setProbe(AUTHORITIES);
        await expectRefused(`${key} holding every key, not a platform administrator`, () => send(route.method, route.url, sample, tokens.probe), 'FORBIDDEN');
      } else {
        for (const held of keys.length > 0 ? keys.map((k) => [k]) : [[]]) {
          await setProbe(held);
          const token = sample.endsSession ? await signIn(ctx.app, 'probe', probe.password) : tokens.probe;
          expectAllowed(`${key} holding ${held.join() || '-'}`, await send(route.method, route.url, sample, token));
        }
      }
      const adminToken = sample.endsSession ? await signIn(ctx.app) : tokens.admin;
      expectAllowed(`${key} admin`, await send(route.method, route.url, sample, adminToken));
      // Another method on the same path is no way round the check: it does not exist.
      const other = route.method === 'GET' ? 'POST' : 'GET';
      if (!routes().some((r) => r.url === route.url && r.method === other)) {
        const response = await call(ctx.app, tokens.admin, { method: other as 'GET', url: route.url });
        expect([`${other} ${route.url}`, response.statusCode]).toEqual([`${other} ${route.url}`, 404]);
      }
    }
  }, 180_000); // ~93 routes x 5 callers: 25 s on main with the shared machine at load 20 for 80 routes; 13 open-platform routes added

  it('treats API keys as callers: a key holding every authority reaches what keys may call, one lacking the route\'s keys nothing', async () => {
    // Keys' last use is written on use (api_keys), their first use of the day in the sign-in history
    // (sign_in_attempts): only those may change besides the unguarded ones.
    const guardedForKeys = guarded.filter((name) => name !== 'api_keys' && name !== 'sign_in_attempts');
    const keyWith = async (authorities: readonly string[]) => (await call(ctx.app, tokens.admin, {
      method: 'POST', url: '/iot/v1/apiKey', payload: { name: `matrix-${authorities.length}`, authorities, expiresAt: '2099-01-01T00:00:00Z' },
    })).json().data.key as string;
    const every = await keyWith(AUTHORITIES);
    const homeOnly = await keyWith(['HOME_PAGE']);
    const asKey = (route: RouteInfo, key: string) => {
      const sample = SAMPLES[keyOf(route)] as Sample;
      const query = sample.query?.(fixture);
      return ctx.app.inject({ method: route.method as 'GET', url: query ? `${route.url}?${query}` : route.url, headers: { authorization: `Bearer ${key}` },
        ...(sample.body ? { payload: sample.body(fixture) } : {}), ...(sample.stream ? { payloadAsStream: true } : {}) }).then((r) => (sample.stream ? streamed(r) : r));
    };
    for (const route of routes().filter((r) => r.access !== 'public')) {
      const key = keyOf(route);
      const before = await tableChecksum(ctx.database, guardedForKeys);
      if (!accessKeys(route.access).includes('HOME_PAGE')) {
        const refused = await asKey(route, homeOnly);
        expect([`${key} key lacking`, refused.statusCode, codeOf(refused)]).toEqual([`${key} key lacking`, 403, 'FORBIDDEN']);
        expect([key, await tableChecksum(ctx.database, guardedForKeys)]).toEqual([key, before]);
      }
      const response = await asKey(route, every);
      if (keyMayCall(route.method, route.url, route.access, route.scope)) expectAllowed(`${key} key holding every authority`, response);
      else expect([`${key} key refused`, response.statusCode, codeOf(response)]).toEqual([`${key} key refused`, 403, 'FORBIDDEN']);
    }
  }, 180_000);
});
