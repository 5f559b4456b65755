/**
 * Liveness and readiness for load balancers and orchestrators (docs/deploy.md "Health"):
 * - `GET /healthz`: 200 `{ status: 'ok' }` while the process serves HTTP at all;
 * - `GET /readyz`: 200 when the database answers, every migration is applied and the device broker is
 *   up (embedded broker listening, or connected to the external one); 503 with the failing checks
 *   otherwise, and from the moment a graceful shutdown begins (so the balancer drains this instance).
 * Both are public, unenveloped, never logged at info and exempt from load shedding.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { migrationsApplied } from '../db/migrate.js';

/** What readiness depends on beyond the database; main.ts fills it as the process starts and stops. */
export interface Lifecycle {
  /** True once the gateway is up and while its broker link holds. Unset: not started yet. */
  brokerReady?: () => boolean;
  /** Set when a graceful shutdown begins. */
  stopping: boolean;
  /** Contract handlers still running (http/endpoint.ts), also those whose client has already gone. */
  handlersRunning: number;
}

/**
 * Resolves once no contract handler runs, or after `ms` ms (returns false then). Graceful shutdown
 * waits for it after `app.close()`: Fastify's close ends when the connections end, but a handler whose
 * client disconnected keeps running and must not find the database closed under it.
 */
export async function handlersFinished(app: FastifyInstance, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (app.lifecycle.handlersRunning > 0) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: Lifecycle;
  }
}

const DATABASE_CHECK_MS = 2000;

async function databaseCheck(app: FastifyInstance): Promise<{ database: boolean; migrations: boolean }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('timeout')), DATABASE_CHECK_MS); });
  try {
    const migrations = await Promise.race([migrationsApplied(app.database), timeout]);
    return { database: true, migrations };
  } catch {
    return { database: false, migrations: false };
  } finally {
    clearTimeout(timer);
  }
}

export const healthPlugin = fp(async (app: FastifyInstance) => {
  app.decorate('lifecycle', { stopping: false, handlersRunning: 0 } as Lifecycle);
  // Answered even under load shedding (an orchestrator must not kill a busy instance as dead).
  const config = { access: 'public' as const, audit: false, loadShedding: false as const };
  app.get('/healthz', { config, logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config, logLevel: 'warn' }, async (_request, reply) => {
    const checks = { ...(await databaseCheck(app)), broker: app.lifecycle.brokerReady?.() ?? false, stopping: app.lifecycle.stopping };
    const ready = checks.database && checks.migrations && checks.broker && !checks.stopping;
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
  });
});
