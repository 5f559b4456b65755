/**
 * 节假日日历 routes (contract api/holidayCalendar.ts): calendars, their entries (edited or
 * imported from CSV / Excel: multipart with a `calendarId` field then the `file`), applying a calendar
 * to its locks, the per-lock view. In the tenant's transaction; the dispatcher is signalled after the
 * commit for every lock that got a command. The sync hook (sync.ts) is wired in app.ts.
 */
import multipart from '@fastify/multipart';
import {
  HOLIDAY_IMPORT_COLUMNS, HOLIDAY_IMPORT_HEADERS, holidayCalendarEndpoints as E, holidayImportFields, IMPORT_MAX_BYTES,
} from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { lazySecretBox } from '../../crypto/secret-box.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { readForm, type UploadField } from '../../http/multipart.js';
import { readSheet } from '../../http/sheet.js';
import type { Actor } from '../credential/ops.js';
import { sendSheetTemplate } from '../lockDevice/import/template.js';
import { applyCalendar, deleteCalendar, listCalendars, lockSchedules, saveCalendar, scopeOptions } from './calendars.js';
import { HOLIDAY_SHEET, importEntries, listEntries, operateEntry } from './entries.js';

const UPLOAD: UploadField = { field: 'body.file', maxBytes: IMPORT_MAX_BYTES };

export async function holidayCalendarRoutes(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 2, parts: 3, fieldSize: 64, headerPairs: 50 } });
  const box = lazySecretBox(app.config);
  const actorOf = (tenantId: number, principal: { username: string }): Actor => ({ tenantId, username: principal.username, box });

  registerEndpoint(app, E.list, ({ query, inTenant }) => inTenant((tx) => listCalendars(tx, query)));
  registerEndpoint(app, E.scopeOptions, ({ inTenant }) => inTenant((tx) => scopeOptions(tx)));
  registerEndpoint(app, E.save, ({ body, inTenant, tenantId }) => inTenant((tx) => saveCalendar(tx, tenantId, body)));
  registerEndpoint(app, E.delete, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => deleteCalendar(tx, actorOf(tenantId, principal), body.id)));
  registerEndpoint(app, E.entries, ({ query, inTenant }) => inTenant((tx) => listEntries(tx, query.calendarId)));
  registerEndpoint(app, E.entry, ({ body, inTenant, tenantId }) => inTenant((tx) => operateEntry(tx, tenantId, body)));
  registerEndpoint(app, E.apply, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => applyCalendar(tx, actorOf(tenantId, principal), body.id)));
  registerEndpoint(app, E.lockSchedules, ({ query, inTenant, tenantId }) => inTenant((tx) => lockSchedules(tx, tenantId, query)));
  registerEndpoint(app, E.importTemplate, ({ query, request, reply }) => sendSheetTemplate(request, reply, query.format, {
    name: 'holiday-import-template', sheet: 'holidays', columns: HOLIDAY_IMPORT_COLUMNS, headers: HOLIDAY_IMPORT_HEADERS, textColumns: new Set(['startDate', 'endDate']),
  }), { raw: true });
  registerEndpoint(app, E.import, async ({ request, inTenant, tenantId }) => {
    const form = await readForm(request, UPLOAD, holidayImportFields, (file) => file.toBuffer());
    const rows = await readSheet(app.workers, form.file, HOLIDAY_SHEET);
    return inTenant((tx) => importEntries(tx, tenantId, form.fields.calendarId, rows));
  });
}
