/**
 * A background job as a Fastify plugin: it starts when the app
 * is ready (`onReady`) and stops in `onClose`. Fastify runs `onClose` hooks in the reverse order of
 * registration, after the HTTP server has stopped accepting; jobs are registered in the order their
 * declared dependencies give (jobs/index.ts), so a job stops before the jobs it depends on.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** What a started job offers: how to stop it (waiting for the work in progress). */
export interface StartedJob {
  stop(): Promise<void>;
}

export interface JobDefinition<N extends string = string> {
  /** The job's name; its plugin is named `job:<name>` (fastify-plugin `name`). */
  name: N;
  /** Jobs that must start before this one and stop after it (fastify-plugin `dependencies`). */
  dependencies: readonly N[];
  /** Starts the job on the ready app; undefined when it has nothing to do with this configuration. */
  start(app: FastifyInstance): Promise<StartedJob | undefined> | StartedJob | undefined;
  /** Runs once the HTTP server listens (what needs the bound port), after start. */
  listening?(app: FastifyInstance): Promise<void>;
}

/** The plugin name of a job. */
export const pluginNameOf = (name: string) => `job:${name}`;

/** The Fastify plugin running `job` (started on onReady, stopped on onClose). */
export function jobPlugin(job: JobDefinition) {
  return fp(async (app: FastifyInstance) => {
    let started: StartedJob | undefined;
    app.addHook('onReady', async () => {
      started = await job.start(app);
    });
    const { listening } = job;
    if (listening) app.addHook('onListen', async () => { if (started) await listening(app); });
    app.addHook('onClose', async () => {
      const running = started;
      started = undefined;
      await running?.stop();
    });
  }, { name: pluginNameOf(job.name), dependencies: job.dependencies.map(pluginNameOf), fastify: '5.x' });
}

/**
 * `jobs` in an order where every job comes after its dependencies (a stable topological order:
 * otherwise the table's order). Throws on an unknown dependency or a cycle.
 */
export function inDependencyOrder<N extends string>(jobs: readonly JobDefinition<N>[]): JobDefinition<N>[] {
  const byName = new Map(jobs.map((job) => [job.name, job]));
  const ordered: JobDefinition<N>[] = [];
  const state = new Map<N, 'visiting' | 'done'>();
  const visit = (job: JobDefinition<N>, path: readonly N[]) => {
    if (state.get(job.name) === 'done') return;
    if (state.get(job.name) === 'visiting') throw new Error(`job dependency cycle: ${[...path, job.name].join(' -> ')}`);
    state.set(job.name, 'visiting');
    for (const name of job.dependencies) {
      const dependency = byName.get(name);
      if (!dependency) throw new Error(`job ${job.name} depends on ${name}, which is not selected`);
      visit(dependency, [...path, job.name]);
    }
    state.set(job.name, 'done');
    ordered.push(job);
  };
  for (const job of jobs) visit(job, []);
  return ordered;
}
