/**
 * Credential rules checked before anything is sent, on PGlite and PostgreSQL: validity,
 * digits per model, duplicates (digits compared by decrypting; cards as the lock reads them) and
 * capacity per model refuse with 400/409 and write nothing; tenant isolation of every id-taking route.
 * No gateway: commands simply stay QUEUED.
 */
import { lockModel } from '@iot/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials, locks } from '../src/db/schema.js';
import { call, createTestContext, dataOf, signIn, skipSuite, tableChecksum, type TestContext } from './helper.js';

const GUARDED = ['lock_users', 'credentials', 'credential_operations', 'commands'];
const FUTURE = (ms: number) => new Date(Date.now() + ms).toISOString();
const DAY = 86_400_000;

describe.skipIf(skipSuite)('credential rules and tenant isolation', () => {
  let ctx: TestContext;
  let token: string;
  let lock: { id: number; model: string };
  const send = (url: string, payload: object, tenantId = 100) => call(ctx.app, token, { method: 'POST', url, payload, tenantId });
  const post = async (url: string, payload: object) => dataOf(await send(url, payload));

  /** Expects a refusal with `status`/`code` naming `field`, and the credential tables unchanged. */
  async function refused(url: string, payload: object, status: number, code: string, field?: string) {
    const before = await tableChecksum(ctx.database, GUARDED);
    const response = await send(url, payload);
    expect([response.statusCode, response.json().code]).toEqual([status, code]);
    if (field) expect(response.json().errors?.[0]?.field).toBe(field);
    expect(response.body).not.toMatch(/\d{6}/);
    expect(await tableChecksum(ctx.database, GUARDED)).toBe(before);
  }

  beforeAll(async () => {
    ctx = await createTestContext({ SECRET_KEY: '7b'.repeat(32) }, 5);
    token = await signIn(ctx.app);
    const [row] = await ctx.database.system.select({ id: locks.id, model: locks.model }).from(locks).where(eq(locks.tenantId, 100)).orderBy(locks.id).limit(1);
    lock = row as { id: number; model: string };
  });
  afterAll(() => ctx?.close());

  it('refuses bad validity windows and digits', async () => {
    const url = '/iot/v1/zg/tempPassword';
    const base = { action: 'add', lockId: lock.id, password: '246810' };
    await refused(url, { ...base, validFrom: FUTURE(2 * DAY), validTo: FUTURE(DAY) }, 400, 'VALIDATION_FAILED', 'body.validTo');
    await refused(url, { ...base, validTo: FUTURE(-DAY) }, 400, 'VALIDATION_FAILED', 'body.validTo');
    await refused(url, { ...base, validTo: FUTURE((lockModel(lock.model).maxValidityDays + 2) * DAY) }, 400, 'VALIDATION_FAILED', 'body.validTo');
    await refused(url, { action: 'add', lockId: lock.id, password: '24681' }, 400, 'VALIDATION_FAILED');
    await refused('/iot/v1/zg/foreverPassword', { action: 'add', lockId: lock.id, password: '12345' }, 400, 'VALIDATION_FAILED', 'body.password');
    await refused('/iot/v1/zg/foreverPassword', { action: 'add', lockId: lock.id, password: '12ab56' }, 400, 'VALIDATION_FAILED');
    await refused('/iot/v1/zg/userOperation', { action: 'add', lockId: lock.id, name: 'x', validFrom: FUTURE(DAY), validTo: FUTURE(DAY) }, 400, 'VALIDATION_FAILED', 'body.validTo');
  });

  it('refuses duplicates on a lock: the same digits, the same card in the other byte order', async () => {
    const first = await post('/iot/v1/zg/foreverPassword', { action: 'add', lockId: lock.id, password: '13572468' });
    expect(first).toMatchObject({ syncState: 'adding', secret: '******' });
    await refused('/iot/v1/zg/tempPassword', { action: 'add', lockId: lock.id, password: '13572468', validTo: FUTURE(DAY) }, 409, 'DUPLICATE_CREDENTIAL', 'body.password');
    await post('/iot/v1/zg/cardOperate', { action: 'add', lockId: lock.id, cardNumber: 'A1B2C3D4' });
    await refused('/iot/v1/zg/cardOperate', { action: 'add', lockId: lock.id, cardNumber: 'd4c3b2a1', reversed: true }, 409, 'DUPLICATE_CREDENTIAL', 'body.cardNumber');
    // A row still syncing cannot be changed; a row that did not fail cannot be retried or discarded.
    await refused('/iot/v1/zg/foreverPassword', { action: 'delete', id: first.id }, 409, 'CREDENTIAL_BUSY');
    await refused('/iot/v1/operatePassword/retry', { id: first.id }, 409, 'NOT_FAILED');
    await refused('/iot/v1/operatePassword/discard', { id: first.id }, 409, 'NOT_FAILED');
  });

  it('refuses an add that cannot fit the model; reports capacity', async () => {
    const before = dataOf(await call(ctx.app, token, { method: 'GET', url: `/iot/v1/lockDevice/capacity?lockId=${lock.id}` }));
    expect(before.cards).toMatchObject({ capacity: lockModel(lock.model).capacity.cards, used: 1 });
    const rows = Array.from({ length: before.cards.free }, (_, i) => ({
      tenantId: 100, lockId: lock.id, kind: 'card', slot: i + 1, slotTable: 'cards', cardNumber: `FF${String(i).padStart(6, '0')}`, syncState: 'normal', pendingAction: 'add', createdBy: 'test',
    }));
    await ctx.database.system.insert(credentials).values(rows);
    const full = dataOf(await call(ctx.app, token, { method: 'GET', url: `/iot/v1/lockDevice/capacity?imei=${before.imei}` }));
    expect(full.cards.free).toBe(0);
    await refused('/iot/v1/zg/cardOperate', { action: 'add', lockId: lock.id, cardNumber: '99887766' }, 409, 'CAPACITY_FULL');
  });

  it('answers 404 for another tenant\'s ids on every id-taking route and lists nothing of it', async () => {
    const user = await post('/iot/v1/zg/userOperation', { action: 'add', lockId: lock.id, name: '赵六', phone: '13700000007' });
    const [password] = (await ctx.database.system.select().from(credentials).where(eq(credentials.kind, 'password')));
    const [card] = (await ctx.database.system.select().from(credentials).where(eq(credentials.kind, 'card')));
    const calls: [string, object][] = [
      ['/iot/v1/zg/userOperation', { action: 'add', lockId: lock.id, name: 'x' }], ['/iot/v1/zg/userOperation', { action: 'freeze', id: user.id }],
      ['/iot/v1/zg/foreverPassword', { action: 'add', lockId: lock.id, password: '97531864' }], ['/iot/v1/zg/foreverPassword', { action: 'delete', id: password?.id }],
      ['/iot/v1/zg/tempPassword', { action: 'add', lockId: lock.id, oneTime: true }], ['/iot/v1/zg/cardOperate', { action: 'delete', id: card?.id }],
      ['/iot/v1/zg/addFingerPrint', { action: 'add', lockId: lock.id, lockUserId: user.id }], ['/iot/v1/zg/registerDevice', { lockId: lock.id }],
      ['/iot/v1/zg/deleteDevice', { lockId: lock.id }], ['/iot/v1/operateUser/retry', { id: user.id }], ['/iot/v1/operateUser/discard', { id: user.id }],
      ['/iot/v1/operatePassword/retry', { id: password?.id }], ['/iot/v1/operateCard/discard', { id: card?.id }], ['/iot/v1/operatePassword/reveal', { id: password?.id }],
      ['/iot/v1/operateUser/offboard', { phone: '13700000007' }], ['/iot/v1/simulator/attemptOpen', { lockId: lock.id, method: 'password', password: '13572468' }],
    ];
    for (const [url, payload] of calls) {
      const response = await send(url, payload, 101);
      expect([url, response.statusCode]).toEqual([url, 404]);
    }
    for (const url of [`/iot/v1/lockDevice/capacity?lockId=${lock.id}`, `/iot/v1/lockDevice/whoCanOpen?lockId=${lock.id}`]) {
      expect([url, (await call(ctx.app, token, { method: 'GET', url, tenantId: 101 })).statusCode]).toEqual([url, 404]);
    }
    for (const url of ['/iot/v1/operateUser/list', '/iot/v1/operatePassword/list', '/iot/v1/operateCard/list', '/iot/v1/operatePassword/log', '/iot/v1/operateUser/log']) {
      expect([url, dataOf(await call(ctx.app, token, { method: 'GET', url, tenantId: 101 })).total]).toEqual([url, 0]);
    }
    const states = dataOf(await send('/iot/v1/operateUser/commandStates', { commandIds: [user.lastCommandId] }, 101));
    expect(states).toEqual([]);
    // The same calls in the right tenant: the list sees the rows, masked.
    const list = dataOf(await call(ctx.app, token, { method: 'GET', url: `/iot/v1/operatePassword/list?lockId=${lock.id}` }));
    expect(list.records.every((r: { secret: string }) => r.secret === '******')).toBe(true);
  });
});
