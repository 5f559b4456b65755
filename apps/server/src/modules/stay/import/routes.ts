/**
 * Booking import routes (contract api/stayImport.ts): the template, the dry run and the
 * commit. Uploads are multipart/form-data (@fastify/multipart, registered for these routes only) with
 * one file of at most IMPORT_MAX_BYTES and no other field: larger is a 413; not an .xlsx or .csv sheet
 * of the template's columns, more than STAY_IMPORT_MAX_ROWS rows or an unknown field is a 400 on
 * body.file. Times without an offset are read in the data centre's time zone.
 */
import multipart from '@fastify/multipart';
import {
  IMPORT_MAX_BYTES, importUploadFields, STAY_IMPORT_COLUMNS, STAY_IMPORT_HEADERS, STAY_IMPORT_MAX_ROWS, STAY_IMPORT_REQUIRED, stayImportEndpoints as E,
  type StayImportColumn,
} from '@iot/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerEndpoint } from '../../../http/endpoint.js';
import { readForm, type UploadField } from '../../../http/multipart.js';
import { readSheet, type SheetSpec } from '../../../http/sheet.js';
import type { Actor } from '../../credential/ops.js';
import { sendSheetTemplate } from '../../lockDevice/import/template.js';
import { timeZoneOf } from '../../tenant/settings.js';
import { checkBookings, importBookings } from './check.js';

const UPLOAD: UploadField = { field: 'body.file', maxBytes: IMPORT_MAX_BYTES };
const SHEET: SheetSpec<StayImportColumn> = { columns: STAY_IMPORT_COLUMNS, headers: STAY_IMPORT_HEADERS, required: STAY_IMPORT_REQUIRED, maxRows: STAY_IMPORT_MAX_ROWS };
const TEXT_COLUMNS = new Set<string>(['room', 'checkInAt', 'checkOutAt', 'reference', 'guestMobile', 'guestIdCard']);

/** Registers the three routes; `actorOf` gives the booking actor (stay routes' secret box). */
export async function stayImportRoutes(app: FastifyInstance, actorOf: (tenantId: number, principal: { username: string }) => Actor): Promise<void> {
  await app.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 50 } });

  const upload = async (request: FastifyRequest) => {
    const form = await readForm(request, UPLOAD, importUploadFields, (file) => file.toBuffer());
    return readSheet(app.workers, form.file, SHEET);
  };

  registerEndpoint(app, E.importTemplate, ({ query, request, reply }) => sendSheetTemplate(request, reply, query.format, {
    name: 'stay-import-template', sheet: 'stays', columns: STAY_IMPORT_COLUMNS, headers: STAY_IMPORT_HEADERS, textColumns: TEXT_COLUMNS, wide: new Set(['kind', 'guestIdCard']),
  }), { raw: true });
  registerEndpoint(app, E.importCheck, async ({ request, inTenant, tenantId }) => {
    const rows = await upload(request);
    return inTenant(async (tx) => checkBookings(tx, rows, await timeZoneOf(tx, tenantId)), { read: true });
  });
  registerEndpoint(app, E.import, async ({ request, inTenant, tenantId, principal }) => {
    const rows = await upload(request);
    return inTenant(async (tx) => importBookings(tx, actorOf(tenantId, principal), rows, await timeZoneOf(tx, tenantId)));
  });
}
