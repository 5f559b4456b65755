/**
 * Notification channels through the API: each kind's test message reaches a fake receiver
 * that checks the real signature (DingTalk sign, WeCom key, Feishu sign, the open platform's webhook
 * signature) and a real SMTP server; secrets are sealed and shown masked; an endpoint at a private
 * address is refused; a wrong secret is reported as not sent; every change is in 系统日志; another
 * data centre sees none of it.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, dataOf, rowsOf, signIn, skipSuite, type TestContext } from './helper.js';
import { SECRETS, startRobots, startSmtp } from './notification-receivers.js';

const CHANNEL = '/iot/v1/notification/channel';

describe.skipIf(skipSuite)('notification channels', () => {
  let ctx: TestContext;
  let token: string;
  let robots: Awaited<ReturnType<typeof startRobots>>;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const create = (payload: Record<string, unknown>, tenantId = 100) => call(ctx.app, token, { method: 'POST', url: CHANNEL, payload, tenantId });
  const test = (id: number, tenantId = 100) => call(ctx.app, token, { method: 'POST', url: `${CHANNEL}/test`, payload: { id }, tenantId });

  beforeAll(async () => {
    ctx = await createTestContext({ PUSH_ALLOWED_NETWORKS: 'loopback' }, 1);
    token = await signIn(ctx.app);
    robots = await startRobots();
    smtp = await startSmtp('alerts@example.com', 'smtp-password-1234');
  });
  afterAll(async () => {
    await robots?.close();
    await smtp?.close();
    await ctx?.close();
  });

  it.each([
    ['dingtalk', { url: '/dingtalk?access_token=abcdef123456', secret: SECRETS.dingtalk }],
    ['wecom', { url: '/wecom', secret: SECRETS.wecom }],
    ['feishu', { url: '/feishu', secret: SECRETS.feishu }],
    ['webhook', { url: '/webhook', secret: SECRETS.webhook }],
  ] as const)('%s: the test message carries a signature its receiver accepts', async (kind, { url, secret }) => {
    const created = await create({ kind, name: `${kind} robot`, url: robots.url(url), secret, language: 'en-US' });
    expect(created.statusCode).toBe(200);
    const channel = dataOf(created);
    expect(channel).toMatchObject({ kind, secretHint: `••••${secret.slice(-4)}`, enabled: true });
    expect(created.body).not.toContain(secret);
    if (kind === 'dingtalk') expect(channel.url).toContain('access_token=••••3456');
    const before = robots.received.length;
    const sent = dataOf(await test(channel.id));
    expect(sent).toMatchObject({ sent: true, error: null });
    const got = robots.received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]?.verified).toBe(true);
    expect(got[0]?.body).toContain('IoT platform test notification');
    const listed = dataOf(await call(ctx.app, token, { method: 'GET', url: CHANNEL })) as { id: number; lastTest: { sent: boolean } }[];
    expect(listed.find((row) => row.id === channel.id)?.lastTest?.sent).toBe(true);
  });

  it('a wrong secret is sent, refused by the receiver and reported with its reason', async () => {
    const channel = dataOf(await create({ kind: 'dingtalk', name: 'wrong', url: robots.url('/dingtalk?access_token=x'), secret: 'SECnot-the-right-one' }));
    const sent = dataOf(await test(channel.id));
    expect(sent.sent).toBe(false);
    expect(sent.error).toContain('310000');
    // Update keeps the URL and takes the right secret.
    const updated = await call(ctx.app, token, { method: 'POST', url: `${CHANNEL}/update`, payload: { id: channel.id, kind: 'dingtalk', name: 'fixed', secret: SECRETS.dingtalk } });
    expect(updated.statusCode).toBe(200);
    expect(dataOf(await test(channel.id)).sent).toBe(true);
  });

  it('e-mail: delivered to a real SMTP server with the sealed password, text and HTML', async () => {
    const channel = dataOf(await create({
      kind: 'email', name: 'ops mail', host: '127.0.0.1', port: smtp.port, secure: false, username: 'alerts@example.com', password: 'smtp-password-1234',
      from: 'alerts@example.com', to: ['ops@example.com', 'duty@example.com'],
    }));
    expect(channel).toMatchObject({ url: null, secretHint: '••••1234', email: { host: '127.0.0.1', to: ['ops@example.com', 'duty@example.com'] } });
    expect(JSON.stringify(channel)).not.toContain('smtp-password');
    const sent = dataOf(await test(channel.id));
    expect(sent).toMatchObject({ sent: true, status: null, error: null });
    const mail = smtp.mails.at(-1);
    expect(mail).toMatchObject({ from: 'alerts@example.com', to: ['ops@example.com', 'duty@example.com'], user: 'alerts@example.com' });
    expect(mail?.raw).toContain('text/html');
    expect(mail?.raw).toContain('text/plain');
  });

  it('secrets are stored sealed, never in clear', async () => {
    const rows = await rowsOf<{ sealed: string; settings: unknown }>(ctx.database.system.execute(sql`select sealed, settings from notification_channels`));
    const all = JSON.stringify(rows);
    for (const secret of [...Object.values(SECRETS), 'smtp-password-1234', 'abcdef123456']) expect(all).not.toContain(secret);
    expect(rows.every((row) => row.sealed.startsWith('v1.'))).toBe(true);
  });

  it.each([
    ['url', { kind: 'webhook', url: 'https://10.0.0.5/hook', secret: 'whsec_12345678' }],
    ['url', { kind: 'dingtalk', url: 'https://192.168.1.1/robot/send', secret: 'SEC12345678' }],
    ['url', { kind: 'feishu', url: 'http://example.com/hook', secret: 'secret-12345678' }],
    ['url', { kind: 'wecom', url: 'https://169.254.169.254/latest', secret: 'key-12345678' }],
    ['host', { kind: 'email', host: '10.1.2.3', from: 'a@example.com', to: ['b@example.com'] }],
  ] as const)('refuses a channel at a private address (%s)', async (field, payload) => {
    const response = await create({ name: 'private', ...payload });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).errors[0].field).toBe(`body.${field}`);
  });

  it('writes every change to 系统日志 and no secret with it', async () => {
    const channel = dataOf(await create({ kind: 'wecom', name: 'audited', secret: 'audited-key-9999' }));
    await call(ctx.app, token, { method: 'POST', url: `${CHANNEL}/delete`, payload: { id: channel.id } });
    const rows = await rowsOf<{ action: string; detail: unknown }>(ctx.database.system.execute(sql`
      select action, detail from audit_log where action like '% /iot/v1/notification/%' order by id`));
    const actions = rows.map((row) => row.action);
    expect(actions).toContain(`POST ${CHANNEL}`);
    expect(actions).toContain(`POST ${CHANNEL}/delete`);
    expect(actions).toContain(`POST ${CHANNEL}/test`);
    expect(JSON.stringify(rows)).not.toContain('audited-key-9999');
  });

  it('another data centre sees, tests and deletes none of these channels', async () => {
    const mine = dataOf(await create({ kind: 'wecom', name: 'tenant 100', secret: 'tenant-key-1000' }));
    expect(dataOf(await call(ctx.app, token, { method: 'GET', url: CHANNEL, tenantId: 101 }))).toEqual([]);
    expect((await test(mine.id, 101)).statusCode).toBe(404);
    const deleted = await call(ctx.app, token, { method: 'POST', url: `${CHANNEL}/delete`, payload: { id: mine.id }, tenantId: 101 });
    expect(dataOf(deleted)).toEqual({ deleted: false });
    expect((dataOf(await call(ctx.app, token, { method: 'GET', url: CHANNEL })) as { id: number }[]).some((row) => row.id === mine.id)).toBe(true);
  });
});
