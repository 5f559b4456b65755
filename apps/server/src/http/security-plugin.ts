/**
 * Security headers and CORS on every answer, HTML and API alike:
 * - helmet with a Content-Security-Policy the console works under: scripts only from this
 *   origin (the Vite build has no inline script), styles from this origin plus inline (antd's CSS-in-JS
 *   writes <style> elements), images from this origin and data: (the captcha), no plugins, no framing
 *   (`frame-ancestors 'none'`, X-Frame-Options DENY); nosniff; Referrer-Policy no-referrer. No
 *   `upgrade-insecure-requests`: a console on plain HTTP in a LAN must keep working. The helmet
 *   middleware is built once at start (@fastify/helmet rebuilt it, CSP parsing included, on every
 *   request: ~4 % of a cheap route's CPU).
 * - Strict-Transport-Security only on answers served over HTTPS (directly, or by a trusted proxy's
 *   X-Forwarded-Proto: see TRUST_PROXY); browsers ignore it over HTTP anyway.
 * - `Cache-Control: no-store` on every answer that did not set its own (API data, errors); the web
 *   app's files keep @fastify/static's caching.
 * - CORS: same-origin only unless CORS_ORIGINS lists origins; only those get CORS headers, including
 *   the exposed zw_paas_token header (a rotated token).
 */
import cors from '@fastify/cors';
import helmet from 'helmet';
import { TENANT_HEADER, TOKEN_HEADER } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The console's Content-Security-Policy directives. */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  // blob: a work order's photos, fetched with the token header and shown as object URLs (WorkOrderPhotos.tsx).
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  upgradeInsecureRequests: null,
};

export const HSTS = 'max-age=31536000; includeSubDomains';

export const securityPlugin = fp(async (app: FastifyInstance) => {
  const securityHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
  const allowed = new Set(app.config.CORS_ORIGINS);
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    exposedHeaders: [TOKEN_HEADER, 'ratelimit', 'ratelimit-policy', 'retry-after'],
    allowedHeaders: ['content-type', 'accept-language', 'authorization', TOKEN_HEADER, TENANT_HEADER],
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
});
