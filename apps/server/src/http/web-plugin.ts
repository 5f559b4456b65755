/**
 * Serves the built web app under /api/ in history mode (spec §2): files from WEB_DIST, index.html for
 * any other /api/ path, 404 for a missing /api/assets/* (known-good.md). Other unknown paths get the
 * 404 envelope. `/` redirects to /api/.
 *
 * Loading fast: the build writes Brotli and gzip copies beside each asset (vite.config.ts)
 * and they are sent as they are to a browser that accepts them (`preCompressed`). Hashed files under
 * /api/assets/ never change, so they are cached for a year (`immutable`); index.html and other
 * unhashed files are revalidated on every load (`no-cache`), so a new build is picked up at once.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { WEB_BASE_PATH } from '@iot/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from './api-error.js';
import { errorEnvelope } from './errors-plugin.js';

/** Cache-Control of hashed build output (file names change with their content). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Cache-Control of index.html and other unhashed files: always revalidate. */
export const REVALIDATE = 'no-cache';

const ASSETS = `${WEB_BASE_PATH}/assets/`;

/**
 * True for a GET or HEAD of the web app (`/`, `/api`, `/api/…`: index.html, its pages and files),
 * which load shedding spares (load-shedding.ts). API routes live elsewhere (/iot, /oauth, /v1, /nbdev…).
 */
export function isWebAppRequest(request: Pick<FastifyRequest, 'method' | 'url'>): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '';
  return path === '/' || path === WEB_BASE_PATH || path.startsWith(`${WEB_BASE_PATH}/`);
}

export const webPlugin = fp(async (app: FastifyInstance) => {
  const root = app.config.WEB_DIST;
  const hasWeb = existsSync(join(root, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root,
      prefix: `${WEB_BASE_PATH}/`,
      index: ['index.html'],
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply: FastifyReply) => {
        reply.header('Cache-Control', reply.request.url.startsWith(ASSETS) ? IMMUTABLE : REVALIDATE);
      },
    });
  } else {
    app.log.warn({ root }, 'web app not built; run `npm run build`');
  }
  app.get('/', { config: { access: 'public' } }, (_request, reply) => reply.redirect(`${WEB_BASE_PATH}/`));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isPage = path === WEB_BASE_PATH || (path.startsWith(`${WEB_BASE_PATH}/`) && !path.startsWith(ASSETS));
    if (hasWeb && request.method === 'GET' && isPage) return reply.type('text/html').header('Cache-Control', REVALIDATE).sendFile('index.html');
    return reply.status(404).send(errorEnvelope(request, new ApiError('NOT_FOUND')));
  });
});
