/**
 * Photos of a work order (table `work_order_photos`, owned by this module): the technician's proof, kept with the order. The format is read from the image's own
 * header (image-size), never from its name or the client's content type: JPEG, PNG or WebP only. In the
 * caller's tenant transaction (row-level security confines every row to the data centre).
 * Errors: 404 for an order or photo the data centre lacks; 400 on body.file for bytes that are not one
 * of the formats; 409 on body.file when the order already keeps WORK_ORDER_PHOTOS_MAX photos.
 */
import { type WORK_ORDER_PHOTO_TYPES, WORK_ORDER_PHOTOS_MAX, type WorkOrderRecord } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { imageSize } from 'image-size';
import type { Executor, Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { ApiError, conflictError, fieldError } from '../../http/api-error.js';
import { findWorkOrder } from './repo.js';

type PhotoType = (typeof WORK_ORDER_PHOTO_TYPES)[number];
const TYPES: Record<string, PhotoType> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/** The image's content type and size in pixels; 400 on body.file unless it is a JPEG, PNG or WebP image. */
export function inspectPhoto(bytes: Uint8Array): { contentType: PhotoType; width: number; height: number } {
  let found: { type?: string; width?: number; height?: number } | undefined;
  try {
    found = imageSize(bytes);
  } catch {
    found = undefined;
  }
  const contentType = found?.type ? TYPES[found.type] : undefined;
  if (!contentType || !found?.width || !found.height) {
    throw fieldError('body.file', '照片须为 JPEG、PNG 或 WebP 图片', 'The photo must be a JPEG, PNG or WebP image');
  }
  return { contentType, width: found.width, height: found.height };
}

/** Adds a photo to order `workOrderId`; answers the order with its photos. */
export async function addWorkOrderPhoto(
  tx: Tx, tenantId: number, username: string, workOrderId: number, fileName: string, bytes: Uint8Array,
): Promise<WorkOrderRecord> {
  const image = inspectPhoto(bytes);
  const [order] = rowsOf<{ n: number | string }>(await tx.execute(sql`
    select (select count(*) from work_order_photos p where p.work_order_id = w.id) as n from work_orders w where w.id = ${workOrderId} for update`));
  if (!order) throw new ApiError('NOT_FOUND');
  if (Number(order.n) >= WORK_ORDER_PHOTOS_MAX) {
    throw conflictError('body.file', `每个工单最多 ${WORK_ORDER_PHOTOS_MAX} 张照片`, `A work order keeps at most ${WORK_ORDER_PHOTOS_MAX} photos`);
  }
  await tx.execute(sql`
    insert into work_order_photos (tenant_id, work_order_id, file_name, content_type, size_bytes, width, height, data, created_by)
    values (${tenantId}, ${workOrderId}, ${fileName}, ${image.contentType}, ${bytes.byteLength}, ${image.width}, ${image.height}, ${bytes}, ${username})`);
  await tx.execute(sql`update work_orders set updated_at = now() where id = ${workOrderId}`);
  return (await findWorkOrder(tx, workOrderId)) as WorkOrderRecord;
}

/** The bytes of photo `id` with its content type and file name, or undefined. */
export async function readWorkOrderPhoto(db: Executor, id: number): Promise<{ contentType: string; fileName: string; data: Uint8Array } | undefined> {
  const [row] = rowsOf<{ content_type: string; file_name: string; data: Uint8Array }>(await db.execute(sql`
    select content_type, file_name, data from work_order_photos where id = ${id}`));
  return row ? { contentType: row.content_type, fileName: row.file_name, data: row.data } : undefined;
}

/** Deletes photo `id`; answers its order with the photos left. */
export async function deleteWorkOrderPhoto(tx: Tx, id: number): Promise<WorkOrderRecord> {
  const [row] = rowsOf<{ work_order_id: number | string }>(await tx.execute(sql`delete from work_order_photos where id = ${id} returning work_order_id`));
  if (!row) throw new ApiError('NOT_FOUND');
  const workOrderId = Number(row.work_order_id);
  await tx.execute(sql`update work_orders set updated_at = now() where id = ${workOrderId}`);
  return (await findWorkOrder(tx, workOrderId)) as WorkOrderRecord;
}
