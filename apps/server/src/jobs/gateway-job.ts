/**
 * The device gateway as a job (gateway/index.ts: the MQTT broker or the external broker's client,
 * the ingest, the command and air switch dispatchers and the firmware transfer over its transport).
 * Started when the app is ready, it is `app.gateway` from then on; /readyz follows its broker link.
 * It depends on the push worker, which must outlive it: the last committed uplinks queue pushes.
 */
import type { FastifyInstance } from 'fastify';
import { type Gateway, startGateway } from '../gateway/index.js';
import type { JobDefinition } from './plugin.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The running gateway (job `gateway`); undefined before the app is ready or without the job. */
    gateway?: Gateway;
  }
}

/** The gateway job. */
export const gatewayJob: JobDefinition<'gateway' | 'pushWorker'> = {
  name: 'gateway',
  dependencies: ['pushWorker'],
  async start(app: FastifyInstance) {
    const gateway = await startGateway({ database: app.database, config: app.config, log: app.log });
    app.gateway = gateway;
    app.lifecycle.brokerReady = () => gateway.stats().external?.connected ?? true;
    return {
      async stop() {
        app.lifecycle.brokerReady = () => false;
        await gateway.close(); // dispatchers, broker, then every accepted uplink committed
      },
    };
  },
};
