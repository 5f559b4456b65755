/**
 * Explicit recipients of notification rules on both databases: an account sets its
 * e-mail address and mobile number and verifies the address with a 6-digit code read from the mail the
 * in-test SMTP server received (wrong, expired, out of attempts, re-set); a rule's recipient accounts and
 * role holders get the notification in their inbox and by e-mail only with a verified address (others
 * logged "e-mail not verified"); escalation to accounts after N minutes on the job's clock, stopped by
 * an acknowledgement; accounts and roles of another data centre refused with the field.
 */
import type { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySecretBox } from '../src/crypto/secret-box.js';
import { applyAlarms } from '../src/modules/deviceAlert/lock.js';
import { startNotificationWorker, type NotificationWorker } from '../src/modules/notification/worker.js';
import { egressPolicyOf } from '../src/modules/subscription/egress.js';
import { addAccount, addRole, bindRoles, call, createTestContext, dataOf, operatorWith, rowsOf, signIn, skipSuite, type TestContext } from './helper.js';
import { startSmtp } from './notification-receivers.js';

const API = '/iot/v1/notification';
const CONTACT = '/iot/v1/account/contact';
const MINUTE = 60_000;
type Operator = Awaited<ReturnType<typeof operatorWith>>;
interface Delivery { state: string; escalation: boolean; lastError: string | null; accountId: number | null; accountName: string | null }

describe.skipIf(skipSuite)('notification recipients and verified e-mail addresses', () => {
  let ctx: TestContext;
  let admin: string;
  let alice: Operator;
  let bob: Operator;
  let carol: Operator;
  let nightRole: number;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let worker: NotificationWorker;
  let lockIds: number[];
  let clock = Date.now();
  let seq = 1;
  const alarm = async (lockId: number, kind: protocol.AlarmKind) => {
    const message = { msgId: `r${seq}`, seq: seq++, type: 'alarm' as const, ts: clock, data: { kind, cleared: false } };
    await ctx.database.withTenant(100, (tx) => applyAlarms(tx, [{ lockId, tenantId: 100, message }]));
    await worker.drain();
  };
  const contact = (token: string, payload?: object, path = '') => call(ctx.app, token, payload ? { method: 'POST', url: `${CONTACT}${path}`, payload } : { method: 'GET', url: CONTACT });
  const inbox = async (token: string) => dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/inbox?size=50` }));
  const rule = (payload: Record<string, unknown>, tenantId = 100) => call(ctx.app, admin, { method: 'POST', url: `${API}/rule`, payload: { stormWindowS: 0, ...payload }, tenantId });
  const deliveries = async (ruleId: number): Promise<Delivery[]> => dataOf(await call(ctx.app, admin, { method: 'GET', url: `${API}/delivery?size=100&ruleId=${ruleId}` })).records;
  const fieldOf = (response: { body: string }) => JSON.parse(response.body).errors[0];
  /** Sends a code to `who`'s address and reads it from the mail the SMTP server received. */
  const sendCode = async (who: Operator) => {
    const before = smtp.mails.length;
    const sent = dataOf(await contact(who.token, {}, '/sendCode'));
    expect(sent).toMatchObject({ sent: true, error: null });
    expect(smtp.mails).toHaveLength(before + 1);
    const mail = smtp.mails.at(-1);
    return { mail, code: /code: (\d{6})/.exec(mail?.raw ?? '')?.[1] as string };
  };
  const verified = async (who: Operator, email: string) => {
    dataOf(await contact(who.token, { email, language: 'en-US' }));
    const { code } = await sendCode(who);
    return dataOf(await contact(who.token, { code }, '/verify'));
  };

  beforeAll(async () => {
    ctx = await createTestContext({ PUSH_ALLOWED_NETWORKS: 'loopback' }, 3);
    admin = await signIn(ctx.app);
    alice = await operatorWith(ctx.app, admin, 'alice', ['LOOK_INFO']);
    bob = await operatorWith(ctx.app, admin, 'bob', ['LOOK_INFO']);
    carol = await operatorWith(ctx.app, admin, 'carol', ['LOOK_INFO']);
    nightRole = await addRole(ctx.app, admin, 'night-shift', ['LOOK_INFO']);
    await bindRoles(ctx.app, admin, bob.id, [bob.roleId, nightRole]);
    bob = { ...bob, token: await signIn(ctx.app, 'bob', bob.password) }; // a changed binding signs bob out
    smtp = await startSmtp('alerts@example.com', 'smtp-password-1234');
    worker = startNotificationWorker({
      database: ctx.database, box: lazySecretBox(ctx.config), policy: egressPolicyOf(ctx.config), log: ctx.app.log, scheduleMs: [20], now: () => new Date(clock),
    });
    lockIds = (await rowsOf<{ id: number }>(ctx.database.system.execute(sql`select id from locks where tenant_id = 100 order by id limit 3`))).map((row) => row.id);
  });
  afterAll(async () => {
    await worker?.close();
    await smtp?.close();
    await ctx?.close();
  });

  it('stores contact details, refuses bad ones with the field, and needs an e-mail channel to send a code', async () => {
    expect(dataOf(await contact(alice.token))).toEqual({ email: null, emailVerifiedAt: null, mobile: null, language: null, codeExpiresAt: null });
    expect(fieldOf(await contact(alice.token, { email: 'not-an-address' })).field).toBe('body.email');
    const badMobile = await contact(alice.token, { mobile: '12345678901' });
    expect([badMobile.statusCode, fieldOf(badMobile).field]).toEqual([400, 'body.mobile']);
    expect(fieldOf(await contact(alice.token, {}, '/sendCode')).field).toBe('body.email'); // no address yet
    const saved = dataOf(await contact(alice.token, { email: 'alice@example.com', mobile: '13800138000', language: 'en-US' }));
    expect(saved).toMatchObject({ email: 'alice@example.com', mobile: '13800138000', language: 'en-US', emailVerifiedAt: null });
    const noChannel = await contact(alice.token, {}, '/sendCode');
    expect([noChannel.statusCode, fieldOf(noChannel).message['en-US']]).toEqual([400, 'This data centre has no enabled e-mail channel to send the code through']);
    const channel = await call(ctx.app, admin, {
      method: 'POST', url: `${API}/channel`, payload: {
        kind: 'email', name: 'mailer', host: '127.0.0.1', port: smtp.port, secure: false, username: 'alerts@example.com', password: 'smtp-password-1234',
        from: 'alerts@example.com', to: ['ops@example.com'], language: 'zh-CN',
      },
    });
    expect(channel.statusCode).toBe(200);
  });

  it('verifies an address with the code from the mail; a wrong code counts, changing the address un-verifies it', async () => {
    const { mail, code } = await sendCode(alice);
    expect(mail?.to).toEqual(['alice@example.com']);
    expect(code).toMatch(/^\d{6}$/);
    const [stored] = await rowsOf<{ email_code_hash: string }>(ctx.database.system.execute(sql`select email_code_hash from accounts where id = ${alice.id}`));
    expect(stored?.email_code_hash).not.toContain(code); // hashed at rest
    expect(dataOf(await contact(alice.token)).codeExpiresAt).not.toBeNull();
    const wrong = await contact(alice.token, { code: code === '000000' ? '111111' : '000000' }, '/verify');
    expect([wrong.statusCode, fieldOf(wrong).field, fieldOf(wrong).message['en-US']]).toEqual([400, 'body.code', 'Wrong code: 4 tries left']);
    expect(fieldOf(await contact(alice.token, { code: '12ab56' }, '/verify')).field).toBe('body.code');
    const done = dataOf(await contact(alice.token, { code }, '/verify'));
    expect(done).toMatchObject({ email: 'alice@example.com', codeExpiresAt: null });
    expect(done.emailVerifiedAt).not.toBeNull();
    // Same address (any case) keeps the verification; another one loses it.
    expect(dataOf(await contact(alice.token, { email: 'Alice@example.com', language: 'en-US' })).emailVerifiedAt).not.toBeNull();
    expect(dataOf(await contact(alice.token, { email: 'alice2@example.com', language: 'en-US' })).emailVerifiedAt).toBeNull();
    expect((await verified(alice, 'alice@example.com')).emailVerifiedAt).not.toBeNull();
  });

  it('refuses an expired code and spends a code after 5 wrong tries', async () => {
    dataOf(await contact(carol.token, { email: 'carol@example.com', language: 'en-US' }));
    const first = await sendCode(carol);
    await ctx.database.system.execute(sql`update accounts set email_code_expires_at = now() - interval '1 minute' where id = ${carol.id}`);
    const expired = await contact(carol.token, { code: first.code }, '/verify');
    expect([expired.statusCode, fieldOf(expired).message['en-US']]).toEqual([400, 'The code has expired: send a new one']);
    const second = await sendCode(carol);
    const bad = second.code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i += 1) expect((await contact(carol.token, { code: bad }, '/verify')).statusCode).toBe(400);
    expect(fieldOf(await contact(carol.token, { code: bad }, '/verify')).message['en-US']).toBe('Too many wrong codes: send a new one');
    expect(fieldOf(await contact(carol.token, { code: second.code }, '/verify')).message['en-US']).toBe('No code is waiting: send one first');
    expect((await verified(carol, 'carol@example.com')).emailVerifiedAt).not.toBeNull();
    expect(smtp.mails.map((m) => m.raw).join('\n')).not.toContain('smtp-password');
  });

  it('sends to recipient accounts and role holders: inbox for all, e-mail only to verified addresses', async () => {
    dataOf(await contact(bob.token, { email: 'bob@example.com' })); // never verified
    const choices = dataOf(await call(ctx.app, admin, { method: 'GET', url: `${API}/rule/recipients` }));
    expect(choices.accounts).toEqual(expect.arrayContaining([{ id: alice.id, username: 'alice', email: 'alice@example.com', emailVerified: true }]));
    expect(choices.roles.map((r: { id: number }) => r.id)).toContain(nightRole);
    const saved = dataOf(await rule({ name: 'tamper to people', kinds: ['tamper'], recipientAccountIds: [alice.id], recipientRoleIds: [nightRole] }));
    expect(saved).toMatchObject({ channelIds: [], recipientAccountIds: [alice.id], recipientRoleIds: [nightRole], escalationAccountIds: [] });
    const mailsBefore = smtp.mails.length;
    await alarm(lockIds[0] as number, 'tamper');
    for (const who of [alice, bob]) expect((await inbox(who.token)).records.map((r: { kind: string }) => r.kind)).toEqual(['tamper']);
    expect((await inbox(carol.token)).total).toBe(0);
    expect((await inbox(admin)).total).toBe(1); // the default recipients still get it
    const log = await deliveries(saved.id);
    expect(log.map((d) => [d.accountName, d.state, d.lastError]).sort()).toEqual([['alice', 'sent', null], ['bob', 'suppressed', 'e-mail not verified']]);
    const mails = smtp.mails.slice(mailsBefore);
    expect(mails.map((m) => m.to)).toEqual([['alice@example.com']]);
    expect(mails[0]?.raw).toContain('Lock: '); // alice's language (en-US), not the channel's
  });

  it('escalates to accounts after N minutes (inbox and e-mail), and an acknowledgement stops it', async () => {
    const saved = dataOf(await rule({ name: 'forced open', kinds: ['forcedOpen'], recipientAccountIds: [alice.id], escalateAfterMin: 5, escalationAccountIds: [carol.id] }));
    await alarm(lockIds[1] as number, 'forcedOpen');
    clock += 4 * MINUTE;
    await worker.drain();
    expect((await inbox(carol.token)).total).toBe(0);
    const mailsBefore = smtp.mails.length;
    clock += 2 * MINUTE;
    await worker.drain();
    expect((await inbox(carol.token)).records.map((r: { kind: string }) => r.kind)).toEqual(['forcedOpen']);
    expect((await deliveries(saved.id)).filter((d) => d.escalation).map((d) => [d.accountName, d.state])).toEqual([['carol', 'sent']]);
    expect(smtp.mails.slice(mailsBefore).map((m) => m.to)).toEqual([['carol@example.com']]);

    await alarm(lockIds[2] as number, 'forcedOpen');
    const [item] = (await inbox(alice.token)).records as { alertId: number }[];
    expect(dataOf(await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/lockAlert/acknowledge', payload: { ids: [item?.alertId] } }))).toEqual({ acknowledged: 1 });
    clock += 10 * MINUTE;
    await worker.drain();
    expect((await deliveries(saved.id)).filter((d) => d.escalation)).toHaveLength(1);
    expect((await inbox(carol.token)).total).toBe(1);
  });

  it('refuses accounts and roles of another data centre, unknown ones, and a rule with neither channel nor recipient', async () => {
    const dave = await addAccount(ctx.app, admin, 'dave', 'dave-password-1', 101);
    const foreignRole = await addRole(ctx.app, admin, 'elsewhere', ['LOOK_INFO'], 101);
    const cases: [Record<string, unknown>, string][] = [
      [{ recipientAccountIds: [dave] }, 'body.recipientAccountIds'], [{ recipientAccountIds: [alice.id], escalationAccountIds: [dave] }, 'body.escalationAccountIds'],
      [{ recipientRoleIds: [foreignRole] }, 'body.recipientRoleIds'], [{ recipientAccountIds: [alice.id], escalationRoleIds: [999_999] }, 'body.escalationRoleIds'],
      [{}, 'body.channelIds'], [{ recipientAccountIds: ['x'] }, 'body.recipientAccountIds.0'],
    ];
    for (const [payload, field] of cases) {
      const refused = await rule({ name: 'foreign', ...payload });
      expect([refused.statusCode, fieldOf(refused).field]).toEqual([400, field]);
      expect(fieldOf(refused).message['zh-CN']).toBeTruthy();
    }
    const choices = dataOf(await call(ctx.app, admin, { method: 'GET', url: `${API}/rule/recipients` }));
    expect(choices.accounts.map((a: { id: number }) => a.id)).not.toContain(dave);
    expect(choices.roles.map((r: { id: number }) => r.id)).not.toContain(foreignRole);
    // In data centre 101, its own account is fine and 100's is refused.
    expect(fieldOf(await rule({ name: 'theirs', recipientAccountIds: [alice.id] }, 101)).field).toBe('body.recipientAccountIds');
    expect((await rule({ name: 'theirs', recipientAccountIds: [dave] }, 101)).statusCode).toBe(200);
  });
});
