/**
 * Jobs as plugins (jobs/plugin.ts, jobs/index.ts): they start when the app is ready in the order their
 * declared dependencies give, stop in onClose in the reverse order, after the HTTP server stopped;
 * the server's job table puts the push worker before the gateway before the demo fleet.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { selectJobs } from './index.js';
import { inDependencyOrder, type JobDefinition, jobPlugin } from './plugin.js';

describe('jobs as plugins', () => {
  it('start in dependency order and stop in the reverse order, after the server closed', async () => {
    const events: string[] = [];
    const app = Fastify();
    const job = (name: string, dependencies: string[]): JobDefinition => ({
      name, dependencies,
      start: () => {
        events.push(`start ${name}`);
        return { stop: async () => { events.push(`stop ${name} (listening: ${app.server.listening})`); } };
      },
    });
    // Declared out of order: the dependencies decide.
    for (const definition of inDependencyOrder([job('fleet', ['gateway']), job('gateway', ['pushes']), job('retention', []), job('pushes', [])])) {
      await app.register(jobPlugin(definition));
    }
    await app.listen({ port: 0, host: '127.0.0.1' });
    await app.close();
    expect(events).toEqual([
      'start pushes', 'start gateway', 'start fleet', 'start retention',
      'stop retention (listening: false)', 'stop fleet (listening: false)', 'stop gateway (listening: false)', 'stop pushes (listening: false)',
    ]);
  });

  it('refuses a missing dependency and a cycle', () => {
    const job = (name: string, dependencies: string[]): JobDefinition => ({ name, dependencies, start: () => undefined });
    expect(() => inDependencyOrder([job('a', ['b'])])).toThrow(/depends on b/);
    expect(() => inDependencyOrder([job('a', ['b']), job('b', ['a'])])).toThrow(/cycle/);
  });

  it('selects the server\'s jobs with what they depend on: the push worker outlives the gateway, which outlives the fleet', () => {
    expect(selectJobs(['demoFleet']).map((j) => j.name)).toEqual(['pushWorker', 'gateway', 'demoFleet']);
    const all = selectJobs('all').map((j) => j.name);
    expect(all.indexOf('pushWorker')).toBeLessThan(all.indexOf('gateway'));
    expect(all.indexOf('gateway')).toBeLessThan(all.indexOf('demoFleet'));
    expect(new Set(all).size).toBe(12);
    expect(selectJobs([]).length).toBe(0);
  });
});
