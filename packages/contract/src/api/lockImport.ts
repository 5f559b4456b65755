/**
 * Bulk lock import on 门锁信息: a template (.xlsx or .csv, headers in the caller's language),
 * a dry run over an uploaded file that lists every bad row, then the commit of the valid rows (all or
 * nothing, one transaction with its system-log row) answering the new device secrets once, as a CSV file.
 * Uploads are multipart/form-data with one file field `file`.
 */
import { z } from 'zod';
import type { LocalizedText } from '../i18n.js';
import { exportResponse } from './deviceLog.js';
import { endpoint } from './endpoint.js';
import { localized as h } from '../i18n.js';

/** At most this many data rows per file. */
export const IMPORT_MAX_ROWS = 10_000;
/** At most this many bytes per uploaded file. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;

/** The text fields of an import upload beside its `file` part: none. */
export const importUploadFields = z.strictObject({});

/** Columns of an import file, in template order; a file may use either language's header or the key. */
export const IMPORT_COLUMNS = ['imei', 'name', 'model', 'building', 'floor', 'room', 'iccid', 'note', 'simulated'] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];
/** Columns every file must have. */
export const IMPORT_REQUIRED: readonly ImportColumn[] = ['imei', 'name', 'model'];

/** Header of each column in both languages. */
export const IMPORT_HEADERS: Record<ImportColumn, LocalizedText> = {
  imei: h('IMEI', 'IMEI'), name: h('名称', 'Name'), model: h('设备类型', 'Device type'), building: h('楼栋', 'Building'),
  floor: h('楼层', 'Floor'), room: h('房间', 'Room'), iccid: h('ICCID', 'ICCID'), note: h('备注', 'Note'),
  simulated: h('模拟门锁（是/否）', 'Simulated (yes/no)'),
};

const localized = z.object({ 'zh-CN': z.string(), 'en-US': z.string() });
/** One problem of one row: row number as the spreadsheet shows it (the header is row 1), column, reason. */
export const importProblem = z.object({ row: z.number().int(), column: z.enum(IMPORT_COLUMNS), reason: localized });
export type ImportProblem = z.infer<typeof importProblem>;

/** The dry run: data rows read, rows without a problem, and every problem. */
export const importCheckResponse = z.object({ rows: z.number().int(), valid: z.number().int(), problems: z.array(importProblem) });
export type ImportCheck = z.infer<typeof importCheckResponse>;

/** Header of the commit's answer: how many locks were registered. */
export const IMPORT_COUNT_HEADER = 'x-import-count';

export const lockImportEndpoints = {
  importTemplate: endpoint({
    method: 'GET', path: '/iot/v1/lockDevice/importTemplate', access: 'LOCK_REGISTRY', kind: 'token',
    query: z.object({ format: z.enum(['csv', 'xlsx']).default('xlsx') }), response: exportResponse,
  }),
  importCheck: endpoint({
    method: 'POST', path: '/iot/v1/lockDevice/importCheck', access: 'LOCK_REGISTRY', kind: 'multipart', response: importCheckResponse,
    upload: { fields: importUploadFields, maxBytes: IMPORT_MAX_BYTES },
  }),
  /** Registers the file's valid rows (bad rows skipped, as the dry run listed them); answers the secrets as CSV (IMEI, name, secret). */
  import: endpoint({
    method: 'POST', path: '/iot/v1/lockDevice/import', access: 'LOCK_REGISTRY', kind: 'multipart', response: exportResponse,
    upload: { fields: importUploadFields, maxBytes: IMPORT_MAX_BYTES },
    action: { label: h('批量导入门锁', 'Import locks') },
  }),
};
