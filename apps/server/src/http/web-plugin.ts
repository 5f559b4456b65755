/**
 * Serves the built web app under /api/ in history mode (spec §2): files from WEB_DIST, index.html for
 * any other /api/ path, 404 for a missing /api/assets/* (known-good.md). Other unknown paths get the
 * 404 envelope. `/` redirects to /api/.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { WEB_BASE_PATH } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from './api-error.js';
import { errorEnvelope } from './errors-plugin.js';

export const webPlugin = fp(async (app: FastifyInstance) => {
  const root = app.config.WEB_DIST;
  const hasWeb = existsSync(join(root, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, { root, prefix: `${WEB_BASE_PATH}/`, index: ['index.html'] });
  } else {
    app.log.warn({ root }, 'web app not built; run `npm run build`');
  }
  app.get('/', { config: { access: 'public' } }, (_request, reply) => reply.redirect(`${WEB_BASE_PATH}/`));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isPage = path === WEB_BASE_PATH || (path.startsWith(`${WEB_BASE_PATH}/`) && !path.startsWith(`${WEB_BASE_PATH}/assets/`));
    if (hasWeb && request.method === 'GET' && isPage) return reply.type('text/html').sendFile('index.html');
    return reply.status(404).send(errorEnvelope(request, new ApiError('NOT_FOUND')));
  });
});
