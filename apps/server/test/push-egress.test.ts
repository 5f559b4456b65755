/**
 * The open platform's SSRF guard through saveConfig, with no network allowed beyond public
 * addresses (PUSH_ALLOWED_NETWORKS empty): loopback, private, link-local, unique-local, unspecified,
 * IPv4-mapped, plain http to a public host, credentials in the URL, and a name that resolves to
 * loopback (checked on the resolved address) are all refused with a 400 on the URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, signIn, skipSuite, type TestContext } from './helper.js';

describe.skipIf(skipSuite)('open platform egress guard', () => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestContext({ PUSH_ALLOWED_NETWORKS: '' }, 1);
    token = await signIn(ctx.app);
    await call(ctx.app, token, { method: 'POST', url: '/nbdev/customerCode', payload: { customerCode: 'SSRF-1', name: 'x' } });
    await call(ctx.app, token, { method: 'POST', url: '/nbdev/generateKey', payload: { customerCode: 'SSRF-1' } });
  });
  afterAll(() => ctx?.close());

  it.each([
    'http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'https://10.0.0.5/hook', 'https://192.168.1.1/hook', 'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook', 'https://[::ffff:127.0.0.1]/hook', 'https://[fd00::1]/hook', 'https://0.0.0.0/hook', 'http://example.com/hook',
    'https://user:pass@example.com/hook', 'https://localhost./hook',
  ])('refuses %s', async (url) => {
    const response = await call(ctx.app, token, { method: 'POST', url: '/nbdev/saveConfig', payload: { customerCode: 'SSRF-1', url, eventTypes: ['unlock'] } });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).errors[0].field).toBe('body.url');
  });
});
