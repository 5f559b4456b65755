/**
 * Lock import routes (门锁信息): the template, the dry run and the commit. Uploads are
 * multipart/form-data (@fastify/multipart, registered for these routes only) with one file of at most
 * IMPORT_MAX_BYTES and no other field; a larger one is a 413, anything not an .xlsx or .csv sheet of the
 * template's columns, an unknown field or a file name with a control character a 400. The IMEIs taken anywhere are read before the tenant transaction (one connection on PGlite).
 */
import multipart from '@fastify/multipart';
import { IMPORT_COUNT_HEADER, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, importUploadFields, lockImportEndpoints as E } from '@iot/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fieldError } from '../../../http/api-error.js';
import { registerEndpoint } from '../../../http/endpoint.js';
import { sendExport } from '../../../http/export.js';
import { readForm, type UploadField } from '../../../http/multipart.js';
import { checkImport, takenImeis } from './check.js';
import { commitImport, SECRET_COLUMNS } from './commit.js';
import { readImportFile } from './read.js';
import { sendTemplate } from './template.js';

const UPLOAD: UploadField = { field: 'body.file', maxBytes: IMPORT_MAX_BYTES };

export async function lockImportRoutes(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 50 } });

  /** The uploaded file's rows and the IMEIs among them registered anywhere. */
  const upload = async (request: FastifyRequest) => {
    const form = await readForm(request, UPLOAD, importUploadFields, (file) => file.toBuffer());
    const rows = await readImportFile(app.workers, form.file);
    return { rows, taken: await takenImeis(app.database.system, rows.map((row) => row.cells.imei)) };
  };

  registerEndpoint(app, E.importTemplate, async ({ query, request, reply }) => sendTemplate(request, reply, query.format), { raw: true });

  registerEndpoint(app, E.importCheck, async ({ request, inTenant }) => {
    const { rows, taken } = await upload(request);
    const result = await inTenant((tx) => checkImport(tx, rows, taken), { read: true });
    return { rows: result.rows, valid: result.valid.length, problems: result.problems };
  });

  registerEndpoint(app, E.import, async ({ request, reply, tenantId, inTenant }) => {
    const { rows, taken } = await upload(request);
    const issued = await inTenant(async (tx) => {
      const { valid } = await checkImport(tx, rows, taken);
      if (valid.length === 0) throw fieldError('body.file', '文件中没有可导入的行', 'No row of the file can be imported');
      return commitImport(tx, tenantId, valid);
    });
    reply.header(IMPORT_COUNT_HEADER, String(issued.length));
    reply.header('cache-control', 'no-store');
    return sendExport({ request, reply, format: 'csv', name: 'lock-secrets', columns: SECRET_COLUMNS, rows: issued, max: IMPORT_MAX_ROWS });
  }, { raw: true });
}
