/**
 * The demo fleet as a job (DEMO=on only; demo/index.ts, imported only then, so a production process never
 * loads the simulator): the simulated locks and air switches on the gateway's broker, following the
 * lock registry's events; once the HTTP server listens, the demo customer code pushing to the
 * embedded demo receiver on that port. Depends on the gateway (its broker port), so it stops first.
 */
import type { FastifyInstance } from 'fastify';
import type { JobDefinition } from './plugin.js';

/** The demo fleet job. */
export const demoFleetJob: JobDefinition<'demoFleet' | 'gateway'> = {
  name: 'demoFleet',
  dependencies: ['gateway'],
  async start(app: FastifyInstance) {
    if (!app.config.DEMO) return undefined;
    const demo = await import('../demo/index.js');
    const fleet = await demo.startDemoFleet(app, app.database, app.config, app.gateway?.port ?? 0);
    return { stop: async () => { await fleet?.stop(); } };
  },
  async listening(app: FastifyInstance) {
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : app.config.PORT;
    const demo = await import('../demo/index.js');
    await demo.seedDemoSubscription(app.database, app.config, port);
  },
};
