/**
 * Idempotency-Key (IETF draft-ietf-httpapi-idempotency-key-header) on money-moving and
 * credential-creating calls: 20 identical concurrent create-order requests with one key make one order
 * and get one answer; a repeat within 24 h gets the first answer (status and body, refusals included);
 * the same key with another body is a 422 and changes nothing; keys are scoped per account and data
 * centre; a malformed key is a 400; expired keys are cleaned up. Declared in /openapi.json.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials, idempotencyKeys, orders, refunds } from '../src/db/schema.js';
import { deleteExpiredKeys } from '../src/http/idempotency.js';
import { imeiWithCheckDigit } from '@iot/contract';
import { call, dataOf, operatorWith, skipSuite } from './helper.js';
import { buy, createPayContext, type PayContext, waitForState } from './wx-support.js';

describe.skipIf(skipSuite)('Idempotency-Key', () => {
  let ctx: PayContext;
  const count = async (table: typeof orders | typeof credentials | typeof refunds) => (await ctx.database.system.select().from(table)).length;
  const send = (url: string, payload: object, key?: string, options: { token?: string; tenantId?: number } = {}) =>
    call(ctx.app, options.token ?? ctx.token, { method: 'POST', url, payload, tenantId: options.tenantId, headers: key === undefined ? {} : { 'Idempotency-Key': key } });
  const order = (key?: string, lockIds = [1], options: { token?: string; tenantId?: number } = {}) => send('/iot/v1/wx/createOrder', { productId: 1, lockIds }, key, options);

  beforeAll(async () => {
    ctx = await createPayContext();
  });
  afterAll(() => ctx?.close());

  it('makes one order of 20 identical concurrent requests with one key; every caller gets its answer', async () => {
    const before = await count(orders);
    const answers = await Promise.all(Array.from({ length: 20 }, () => order('"8e03978e-40d5-43e8-bc93-6894a57f9324"')));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((answer) => answer.json().data.outTradeNo)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
    expect(await count(orders)).toBe(before + 1);
    // Without a key, each request is its own.
    await Promise.all([order(), order()]);
    expect(await count(orders)).toBe(before + 3);
  });

  it('answers a repeat with the first answer, refusals included; another body with the same key is a 422', async () => {
    const first = await order('repeat-1');
    const before = await count(orders);
    const again = await order('repeat-1');
    expect([again.statusCode, again.body]).toEqual([first.statusCode, first.body]);
    // Another body (another key order counts as the same body).
    const other = await order('repeat-1', [2]);
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    const reordered = await send('/iot/v1/wx/createOrder', { lockIds: [1], productId: 1 }, 'repeat-1');
    expect(reordered.body).toBe(first.body);
    // A refusal after the key was claimed is the answer too.
    const refused = await send('/iot/v1/wx/createOrder', { productId: 1, lockIds: [1, 2] }, 'refused-1');
    expect(refused.statusCode).toBe(400);
    expect((await send('/iot/v1/wx/createOrder', { productId: 1, lockIds: [1, 2] }, 'refused-1')).body).toBe(refused.body);
    expect(await count(orders)).toBe(before);
  });

  it('scopes keys per account and per data centre', async () => {
    const before = await count(orders);
    const buyer = await operatorWith(ctx.app, ctx.token, 'idem-buyer', ['RENEW']);
    const mine = await order('shared-key');
    const theirs = await order('shared-key', [1], { token: buyer.token });
    const foreign = dataOf(await call(ctx.app, ctx.token, { method: 'POST', url: '/iot/v1/lockDevice', tenantId: 101, payload: { imei: imeiWithCheckDigit('86999100000001'), name: 'dc 101', model: 'ZG-NB100' } }));
    const elsewhere = await order('shared-key', [foreign.id], { tenantId: 101 });
    expect([mine.statusCode, theirs.statusCode, elsewhere.statusCode]).toEqual([200, 200, 200]);
    expect(new Set([mine, theirs, elsewhere].map((answer) => answer.json().data.outTradeNo)).size).toBe(3);
    expect(await count(orders)).toBe(before + 3);
  });

  it('refuses a malformed key with a 400 naming the header', async () => {
    const empty = await order('""');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].field).toBe('headers.Idempotency-Key');
    expect((await order('x'.repeat(256))).statusCode).toBe(400);
  });

  it('adds a credential once per key (a password the server draws)', async () => {
    const before = await count(credentials);
    const body = { action: 'add', lockId: 2 };
    const answers = await Promise.all(Array.from({ length: 5 }, () => send('/iot/v1/zg/foreverPassword', body, 'password-1')));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(5).fill(200));
    expect(new Set(answers.map((answer) => answer.json().data.id)).size).toBe(1);
    expect(await count(credentials)).toBe(before + 1);
  });

  it('refunds once per key', async () => {
    const paid = await buy(ctx, [3]);
    expect(ctx.sandbox.pay(paid.outTradeNo)).toBe(true);
    await waitForState(ctx, paid.outTradeNo, 'SUCCESS');
    const before = await count(refunds);
    const body = { outTradeNo: paid.outTradeNo, amountFen: 100, reason: 'idempotent' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => send('/iot/v1/wx/orderInfo/refund', body, 'refund-1')));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(5).fill(200));
    expect(await count(refunds)).toBe(before + 1);
  });

  it('forgets keys after 24 h (cleanup), and declares the header in the API document', async () => {
    await ctx.database.system.update(idempotencyKeys).set({ expiresAt: sql`now() - interval '1 second'` }).where(sql`${idempotencyKeys.key} = 'repeat-1'`);
    expect(await deleteExpiredKeys(ctx.database)).toBe(1);
    expect((await order('repeat-1', [2])).statusCode).toBe(200);
    const document = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operation = document.paths['/iot/v1/wx/createOrder'].post;
    expect(operation['x-idempotent']).toBe(true);
    expect(operation.parameters.some((p: { in: string; name: string }) => p.in === 'header' && p.name === 'Idempotency-Key')).toBe(true);
    expect(dataOf(await call(ctx.app, ctx.token, { method: 'GET', url: '/iot/v1/wx/product/list' })).length).toBeGreaterThan(0);
  });
});
