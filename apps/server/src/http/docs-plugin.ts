/**
 * API documentation (docs/deploy.md "API documentation"): `GET /openapi.json`, the OpenAPI 3.1
 * document of every registered route (@fastify/swagger, schemas from the contract via openapi.ts),
 * and `GET /docs/`, an interactive reference (@scalar/fastify-api-reference, served from this server,
 * no CDN), which also offers the same document as `/docs/openapi.json` and `/docs/openapi.yaml`. All public.
 * Scalar is pinned to 1.44.9, its last release whose dependencies run on Node 20 (later ones and their
 * undici declare Node >= 22; package.json `engines`). The reference page gets its own Content-Security-Policy: scripts only from
 * this origin plus the hash of its one inline start-up script (no 'unsafe-inline' for scripts); the
 * reference injects its stylesheet at run time, so styles allow 'unsafe-inline' on /docs only.
 * Register before the routes: @fastify/swagger collects them as they are added.
 */
import { createHash } from 'node:crypto';
import swagger from '@fastify/swagger';
import { TENANT_HEADER, TOKEN_HEADER } from '@iot/contract';
import { API_KEY_SCHEME } from './api-key-auth.js';
import scalar from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errorCatalogue, operationOf } from './openapi.js';

/** Where the interactive reference lives (its page, a redirect to it and its script are listed too). */
export const DOCS_PATH = '/docs';

/** CSP of an HTML page allowing its inline scripts by hash (sha256), nothing inline otherwise. */
export function docsContentSecurityPolicy(html: string): string {
  const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((match) => `'sha256-${createHash('sha256').update(match[1] ?? '').digest('base64')}'`);
  return [
    "default-src 'self'", `script-src 'self' ${hashes.join(' ')}`.trim(), "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:", "font-src 'self' data:", "connect-src 'self'", "object-src 'none'", "base-uri 'self'", "frame-ancestors 'self'",
  ].join('; ');
}

export const docsPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: '物联网中台 API · IoT middle platform API',
        version: '1',
        description: [
          'Every JSON answer is an envelope `{ success, code, message, data }`. Signed-in calls send the token in the',
          `\`${TOKEN_HEADER}\` header (from \`POST /oauth/token\`; a rotated token may come back in the same response header)`,
          `and the data centre in \`${TENANT_HEADER}\` (default 100). Each operation names the authority it needs.`,
          'Integrators may send an API key instead: `Authorization: Bearer iotk_…` (scheme `apiKey`; docs/identity.md).',
          '', '### Error codes', '', errorCatalogue(),
        ].join('\n'),
      },
      components: {
        securitySchemes: {
          [TOKEN_HEADER]: { type: 'apiKey', in: 'header', name: TOKEN_HEADER, description: 'Access token from POST /oauth/token' },
          [TENANT_HEADER]: { type: 'apiKey', in: 'header', name: TENANT_HEADER, description: 'Data centre (tenant) id; default 100' },
          [API_KEY_SCHEME]: {
            type: 'http', scheme: 'bearer', bearerFormat: 'iotk_…',
            description: 'API key of an integrator (`Authorization: Bearer iotk_…`, POST /iot/v1/apiKey): acts in its own data centre with its scope; limited per key and per account (429 with Retry-After, RateLimit-Policy and RateLimit headers)',
          },
        },
      },
    },
    transform: ({ schema, url, route }) => ({ schema: (operationOf(route) ?? schema) as never, url }),
  });
  app.get('/openapi.json', { config: { access: 'public', audit: false }, schema: { hide: true } }, async () => app.swagger());
  await app.register(async (docs) => {
    docs.addHook('onSend', async (_request, reply, payload) => {
      if (typeof payload === 'string' && String(reply.getHeader('content-type')).startsWith('text/html')) {
        reply.header('content-security-policy', docsContentSecurityPolicy(payload));
      }
      return payload;
    });
    await docs.register(scalar, {
      routePrefix: DOCS_PATH,
      configuration: { pageTitle: '物联网中台 API', withDefaultFonts: false, hideClientButton: true, telemetry: false,
        showDeveloperTools: 'never', mcp: { disabled: true } } as never,
    });
  });
});
