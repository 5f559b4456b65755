/**
 * Security headers on every answer (API data, errors, HTML, web assets), HSTS only
 * over HTTPS, and CORS same-origin unless CORS_ORIGINS allows an origin (which alone sees zw_paas_token).
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOKEN_HEADER } from '@iot/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, signIn, skipSuite, type TestContext } from './helper.js';

function webDist(): string {
  const root = mkdtempSync(join(tmpdir(), 'harden-web-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><html><head><script type="module" src="/api/assets/app.js"></script></head><body><div id="root"></div></body></html>');
  writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
  return root;
}

const expectSecurityHeaders = (response: LightMyRequestResponse) => {
  const csp = String(response.headers['content-security-policy']);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toMatch(/default-src 'self'/);
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(csp).not.toContain('upgrade-insecure-requests');
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['strict-transport-security']).toBeUndefined();
};

describe.skipIf(skipSuite)('security headers and CORS', () => {
  let ctx: TestContext;
  let allowing: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestContext({ WEB_DIST: webDist(), TRUST_PROXY: ['127.0.0.1'] }, 0);
    allowing = await createTestContext({ CORS_ORIGINS: ['https://ops.example.com'] }, 0);
    token = await signIn(ctx.app);
  });
  afterAll(async () => { await ctx?.close(); await allowing?.close(); });

  it('sends them on API data, errors, HTML and assets; no-store on the API', async () => {
    for (const response of [
      await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo' }),
      await ctx.app.inject({ method: 'GET', url: '/oauth/userInfo' }),
      await ctx.app.inject({ method: 'POST', url: '/v1/sysRole/add', payload: '{' , headers: { 'content-type': 'application/json' } }),
      await ctx.app.inject({ method: 'GET', url: '/no/such/route' }),
    ]) {
      expectSecurityHeaders(response);
      expect(response.headers['cache-control']).toBe('no-store');
    }
    for (const url of ['/api/', '/api/lock/info', '/api/assets/app.js']) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect([url, response.statusCode]).toEqual([url, 200]);
      expectSecurityHeaders(response);
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/api/assets/app.js' })).headers['cache-control']).not.toBe('no-store');
  });

  it('adds HSTS only over HTTPS, as said by a trusted proxy', async () => {
    const https = await ctx.app.inject({ method: 'GET', url: '/oauth/checkCode', headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const untrusted = await allowing.app.inject({ method: 'GET', url: '/oauth/checkCode', headers: { 'x-forwarded-proto': 'https' } });
    expect(untrusted.headers['strict-transport-security']).toBeUndefined();
  });

  it('answers other origins without CORS headers by default, and exposes the token header only to allowed origins', async () => {
    const origin = 'https://evil.example.net';
    const plain = await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo', headers: { origin } });
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
    expect(plain.headers['access-control-expose-headers']).toBeUndefined();
    const preflight = await ctx.app.inject({ method: 'OPTIONS', url: '/oauth/token', headers: { origin, 'access-control-request-method': 'POST' } });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.statusCode).toBeLessThan(500);

    const allowed = await allowing.app.inject({ method: 'GET', url: '/oauth/checkCode', headers: { origin: 'https://ops.example.com' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://ops.example.com');
    expect(String(allowed.headers['access-control-expose-headers'])).toContain(TOKEN_HEADER);
    const allowedPreflight = await allowing.app.inject({ method: 'OPTIONS', url: '/oauth/token', headers: { origin: 'https://ops.example.com', 'access-control-request-method': 'POST' } });
    expect(allowedPreflight.statusCode).toBe(204);
    expect(String(allowedPreflight.headers['access-control-allow-headers'])).toContain(TOKEN_HEADER);
    const other = await allowing.app.inject({ method: 'GET', url: '/oauth/checkCode', headers: { origin } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(other.headers['access-control-expose-headers']).toBeUndefined();
  });
});
