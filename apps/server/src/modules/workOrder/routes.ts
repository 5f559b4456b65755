/** Work-order routes (contract api/workOrder.ts): list, detail, assignees, add, from alerts, edit, state changes, photos. */
import multipart from '@fastify/multipart';
import { languageFromHeader, WORK_ORDER_PHOTO_MAX_BYTES, workOrderPhotoFields, workOrderEndpoints as api } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/api-error.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { readForm, type UploadField } from '../../http/multipart.js';
import { addWorkOrderPhoto, deleteWorkOrderPhoto, readWorkOrderPhoto } from './photos.js';
import { findWorkOrder, listAssignees, listWorkOrders } from './repo.js';
import { addFromAlerts, addWorkOrder, editWorkOrder, transitionWorkOrder } from './orders.js';

const PHOTO_UPLOAD: UploadField = { field: 'body.file', maxBytes: WORK_ORDER_PHOTO_MAX_BYTES };

/** Registers the work-order routes. */
export async function workOrderRoutes(app: FastifyInstance): Promise<void> {
  // One field beyond the form's: an unknown field is then named by the form's schema (400 on body), not cut off by the parser.
  await app.register(multipart, { limits: { fileSize: WORK_ORDER_PHOTO_MAX_BYTES, files: 1, fields: 2, parts: 3, fieldSize: 32, headerPairs: 50 } });
  registerEndpoint(app, api.list, ({ query, inTenant }) => inTenant((tx) => listWorkOrders(tx, query), { read: true }));
  registerEndpoint(app, api.detail, async ({ query, inTenant }) => {
    const record = await inTenant((tx) => findWorkOrder(tx, query.id), { read: true });
    if (!record) throw new ApiError('NOT_FOUND');
    return record;
  });
  registerEndpoint(app, api.assignees, ({ inTenant }) => inTenant((tx) => listAssignees(tx), { read: true }));
  registerEndpoint(app, api.add, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => addWorkOrder(tx, tenantId, principal.username, body)));
  registerEndpoint(app, api.fromAlerts, ({ body, inTenant, tenantId, principal, request }) =>
    inTenant((tx) => addFromAlerts(tx, tenantId, principal.username, body, languageFromHeader(request.headers['accept-language']))));
  registerEndpoint(app, api.edit, ({ body, inTenant }) => inTenant((tx) => editWorkOrder(tx, body)));
  registerEndpoint(app, api.transition, ({ body, inTenant, principal }) => inTenant((tx) => transitionWorkOrder(tx, principal.username, body)));
  registerEndpoint(app, api.addPhoto, async ({ request, inTenant, tenantId, principal }) => {
    const form = await readForm(request, PHOTO_UPLOAD, workOrderPhotoFields, async (file, fileName) => ({ fileName, bytes: await file.toBuffer() }));
    return inTenant((tx) => addWorkOrderPhoto(tx, tenantId, principal.username, form.fields.workOrderId, form.file.fileName, form.file.bytes));
  });
  registerEndpoint(app, api.photo, async ({ query, inTenant, reply }) => {
    const photo = await inTenant((tx) => readWorkOrderPhoto(tx, query.id), { read: true });
    if (!photo) throw new ApiError('NOT_FOUND');
    // Private to the data centre: no shared cache keeps it; the browser may not sniff it into HTML.
    reply.type(photo.contentType).header('cache-control', 'private, max-age=3600').header('x-content-type-options', 'nosniff')
      .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(photo.fileName)}`);
    return Buffer.from(photo.data);
  }, { contentType: 'image/*' });
  registerEndpoint(app, api.deletePhoto, ({ body, inTenant }) => inTenant((tx) => deleteWorkOrderPhoto(tx, body.id)));
}
