/**
 * Load shedding on a bare Fastify app: an idle loop answers; one long block after an idle spell is not
 * shed (sustained overload only); a loop kept busy with long blocks sheds, health routes and the web
 * app's files are never shed, and the app recovers once the loop is idle again.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSheddingPlugin } from './load-shedding.js';
import { isWebAppRequest } from './web-plugin.js';

let app: FastifyInstance | undefined;
afterEach(async () => { await app?.close(); app = undefined; });

const blockFor = (ms: number) => { const end = Date.now() + ms; while (Date.now() < end) { /* busy: the loop cannot turn */ } };
const nextTimers = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function build(maxEventLoopDelayMs: number) {
  const instance = Fastify();
  await instance.register(loadSheddingPlugin, { maxEventLoopDelayMs, retryAfterS: 7, spare: isWebAppRequest });
  instance.get('/work', async () => ({ ok: true }));
  instance.get('/api/*', async () => 'the console');
  instance.get('/healthz', { config: { loadShedding: false } }, async () => ({ ok: true }));
  await instance.ready();
  app = instance;
  return instance;
}

describe('load shedding', () => {
  it('answers while the loop is idle', async () => {
    const instance = await build(1000);
    await sleep(600);
    expect(instance.isUnderPressure()).toBe(false);
    expect((await instance.inject('/work')).statusCode).toBe(200);
  });

  it('does not shed after one long block that follows an idle spell', async () => {
    const instance = await build(500);
    await sleep(700);
    blockFor(1500);
    await nextTimers();
    expect(instance.isUnderPressure()).toBe(false);
    expect((await instance.inject('/work')).statusCode).toBe(200);
  });

  it('sheds while long blocks keep the loop busy, spares health routes, and recovers', async () => {
    const instance = await build(200);
    let shedSeen = false;
    for (const end = Date.now() + 4000; Date.now() < end && !shedSeen;) {
      blockFor(400);
      await new Promise((resolve) => setImmediate(resolve));
      await nextTimers();
      shedSeen = instance.isUnderPressure();
    }
    expect(shedSeen).toBe(true);
    const shed = await instance.inject('/work');
    expect(shed.statusCode).toBe(503);
    expect(shed.headers['retry-after']).toBe('7');
    expect((await instance.inject('/healthz')).statusCode).toBe(200);
    // The console's pages and files are spared: a shed index.html would be a dead page.
    expect((await instance.inject('/api/login')).statusCode).toBe(200);
    expect((await instance.inject({ method: 'POST', url: '/api/login' })).statusCode).toBe(503);
    await sleep(1600);
    expect(instance.isUnderPressure()).toBe(false);
  });

  it('never sheds with a limit of 0', async () => {
    const instance = await build(0);
    blockFor(800);
    await nextTimers();
    expect(instance.isUnderPressure()).toBe(false);
  });
});
