/** Route of "who can open door X at T" (contract credentialEndpoints.whoCanOpen): whoCanOpen.ts. */
import { credentialEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { whoCanOpen } from './whoCanOpen.js';

export async function doorAccessRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, credentialEndpoints.whoCanOpen, ({ query, inTenant }) => inTenant((tx) => whoCanOpen(tx, query)));
}
