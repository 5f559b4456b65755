/**
 * Photos on work orders (docs/work-orders.md), on PGlite and PostgreSQL:
 * JPEG, PNG and WebP recognised from their bytes (an HTML page named .png is refused), the size limit
 * (413), at most WORK_ORDER_PHOTOS_MAX per order (409), the image served back with its type to the
 * order's data centre only, deletion, and both changes in 系统日志.
 */
import { WORK_ORDER_PHOTO_MAX_BYTES, WORK_ORDER_PHOTOS_MAX } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from './firmware-support.js';
import { call, createTestContext, dataOf, rowsOf, signIn, skipSuite, type TestContext } from './helper.js';

const API = '/iot/v1/workOrder';
/** A 1x1 PNG, a 1x1 JPEG and a 1x1 lossless WebP. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.from('/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=', 'base64');
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

describe.skipIf(skipSuite)('work order photos', () => {
  let ctx: TestContext;
  let token: string;
  let orderId: number;

  const upload = async (workOrderId: number, name: string, bytes: Buffer, tenantId = 100) => {
    const { payload, headers } = await multipart({ workOrderId: String(workOrderId) }, { name, bytes });
    return call(ctx.app, token, { method: 'POST', url: `${API}/photo/add`, payload, headers, tenantId });
  };
  const fieldOf = (response: { json(): { errors?: { field: string; message: Record<string, string> }[] } }) => response.json().errors?.[0];

  beforeAll(async () => {
    ctx = await createTestContext({}, 2);
    token = await signIn(ctx.app);
    const [lock] = await rowsOf<{ id: number }>(ctx.database.system.execute(sql`select id from locks where tenant_id = 100 order by id limit 1`));
    const added = await call(ctx.app, token, { method: 'POST', url: `${API}/add`, payload: { title: 'Strike plate bent', kind: 'tamperInspection', locks: [lock?.id] }, tenantId: 100 });
    orderId = dataOf(added).id;
  });
  afterAll(() => ctx?.close());

  it('keeps JPEG, PNG and WebP photos recognised from their bytes, and serves them back to the data centre', async () => {
    const png = await upload(orderId, '电池.png', PNG);
    expect(png.statusCode).toBe(200);
    expect(dataOf(png).photos).toEqual([expect.objectContaining({ fileName: '电池.png', contentType: 'image/png', sizeBytes: PNG.length, width: 1, height: 1, createdBy: 'admin' })]);
    // The name says nothing: a JPEG called .png is a JPEG.
    expect(dataOf(await upload(orderId, 'door.png', JPEG)).photos.map((p: { contentType: string }) => p.contentType)).toEqual(['image/png', 'image/jpeg']);
    const photos = dataOf(await upload(orderId, 'lock.webp', WEBP)).photos as { id: number; contentType: string }[];
    expect(photos.map((p) => p.contentType)).toEqual(['image/png', 'image/jpeg', 'image/webp']);

    const served = await call(ctx.app, token, { method: 'GET', url: `${API}/photo?id=${photos[0]?.id}`, tenantId: 100 });
    expect([served.statusCode, served.headers['content-type'], served.headers['x-content-type-options']]).toEqual([200, 'image/png', 'nosniff']);
    expect(Buffer.compare(served.rawPayload, PNG)).toBe(0);
    // Data centre 101 sees neither the photo nor the order.
    expect((await call(ctx.app, token, { method: 'GET', url: `${API}/photo?id=${photos[0]?.id}`, tenantId: 101 })).statusCode).toBe(404);
    expect((await upload(orderId, 'x.png', PNG, 101)).statusCode).toBe(404);
    const detail = dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/detail?id=${orderId}`, tenantId: 100 }));
    expect(detail.photos).toHaveLength(3);
  });

  it('refuses what is not an image, a file over the limit and a photo past the order\'s maximum', async () => {
    const html = await upload(orderId, 'photo.png', Buffer.from('<html><script>alert(1)</script></html>'));
    expect([html.statusCode, fieldOf(html)?.field, fieldOf(html)?.message['en-US']]).toEqual([400, 'body.file', 'The photo must be a JPEG, PNG or WebP image']);
    const large = await upload(orderId, 'big.png', Buffer.concat([PNG, Buffer.alloc(WORK_ORDER_PHOTO_MAX_BYTES)]));
    expect([large.statusCode, fieldOf(large)?.field]).toEqual([413, 'body.file']);
    const missing = await upload(999_999, 'x.png', PNG);
    expect(missing.statusCode).toBe(404);
    const count = async () => dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/detail?id=${orderId}`, tenantId: 100 })).photos.length as number;
    while ((await count()) < WORK_ORDER_PHOTOS_MAX) expect((await upload(orderId, 'more.png', PNG)).statusCode).toBe(200);
    const over = await upload(orderId, 'one-too-many.png', PNG);
    expect([over.statusCode, fieldOf(over)?.field, fieldOf(over)?.message['zh-CN']]).toEqual([409, 'body.file', `每个工单最多 ${WORK_ORDER_PHOTOS_MAX} 张照片`]);
    expect(await count()).toBe(WORK_ORDER_PHOTOS_MAX);
  });

  it('deletes a photo, and writes both changes to the system log', async () => {
    const before = dataOf(await call(ctx.app, token, { method: 'GET', url: `${API}/detail?id=${orderId}`, tenantId: 100 })).photos as { id: number }[];
    const first = before[0]?.id as number;
    const deleted = await call(ctx.app, token, { method: 'POST', url: `${API}/photo/delete`, payload: { id: first }, tenantId: 100 });
    expect(dataOf(deleted).photos.map((p: { id: number }) => p.id)).not.toContain(first);
    expect((await call(ctx.app, token, { method: 'POST', url: `${API}/photo/delete`, payload: { id: first }, tenantId: 100 })).statusCode).toBe(404);
    expect((await call(ctx.app, token, { method: 'GET', url: `${API}/photo?id=${first}`, tenantId: 100 })).statusCode).toBe(404);
    const log = await rowsOf<{ action: string; result: string }>(ctx.database.system.execute(sql`
      select action, result from audit_log where action like '%/workOrder/photo/%' order by id`));
    expect(log.filter((row) => row.result === 'success').map((row) => row.action)).toEqual([
      ...Array(WORK_ORDER_PHOTOS_MAX).fill('POST /iot/v1/workOrder/photo/add'), 'POST /iot/v1/workOrder/photo/delete',
    ]);
  });
});
