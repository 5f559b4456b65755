/**
 * Booking import (docs/stays.md "Import"): a template (.xlsx or .csv, headers in the caller's
 * language), a dry run over an uploaded file that checks every row as booking its stay would (room with
 * locks, times, overlaps with existing stays and with other rows, duplicate reference) and writes nothing,
 * then the commit: every stay of the file booked in one transaction with its system-log row, or, when any
 * row has a problem, 400 with the rows' problems and nothing written. Uploads are multipart/form-data with
 * one file field `file` (at most IMPORT_MAX_BYTES). One row per guest: rows with the same `reference` are
 * one stay (its room, kind, times and buffers are those of its first row and must be repeated alike).
 */
import { z } from 'zod';
import type { Authority } from '../authorities.js';
import type { LocalizedText } from '../i18n.js';
import { exportResponse } from './deviceLog.js';
import { endpoint } from './endpoint.js';
import { IMPORT_MAX_BYTES, importUploadFields } from './lockImport.js';
import { localized as h } from '../i18n.js';

/** At most this many data rows (guests) per booking file: each stay is checked against the database. */
export const STAY_IMPORT_MAX_ROWS = 2_000;

/** Columns of a booking file, in template order; a file may use either language's header or the key. */
export const STAY_IMPORT_COLUMNS = [
  'building', 'floor', 'room', 'kind', 'checkInAt', 'checkOutAt', 'bufferBeforeMinutes', 'bufferAfterMinutes',
  'reference', 'guestName', 'guestMobile', 'guestIdCard',
] as const;
export type StayImportColumn = (typeof STAY_IMPORT_COLUMNS)[number];
/** Columns every file must have. */
export const STAY_IMPORT_REQUIRED: readonly StayImportColumn[] = ['room', 'checkInAt', 'checkOutAt', 'guestName', 'guestMobile'];

/** Header of each column in both languages. */
export const STAY_IMPORT_HEADERS: Record<StayImportColumn, LocalizedText> = {
  building: h('楼栋', 'Building'), floor: h('楼层', 'Floor'), room: h('房间', 'Room'),
  kind: h('类型（酒店/短租/长租）', 'Kind (hotelNight/shortRental/longLease)'),
  checkInAt: h('入住时间', 'Check-in'), checkOutAt: h('退房时间', 'Check-out'),
  bufferBeforeMinutes: h('提前开门（分钟）', 'Buffer before (minutes)'), bufferAfterMinutes: h('延后关门（分钟）', 'Buffer after (minutes)'),
  reference: h('预订单号', 'Reference'), guestName: h('住客姓名', 'Guest name'), guestMobile: h('手机号', 'Mobile'),
  guestIdCard: h('身份证号', 'ID card number'),
};

const localized = z.object({ 'zh-CN': z.string(), 'en-US': z.string() });
/** One problem of a row: the column and the reason in both languages. */
export const stayImportError = z.object({ column: z.enum(STAY_IMPORT_COLUMNS), reason: localized });
/** One data row: its number as the spreadsheet shows it (header = row 1), ok when it has no problem, and its problems. */
export const stayImportRow = z.object({ row: z.number().int(), ok: z.boolean(), errors: z.array(stayImportError) });
export type StayImportRow = z.infer<typeof stayImportRow>;

/** The dry run: every data row's result and the totals (rows, rows without problem, stays the file books when clean). */
export const stayImportCheckResponse = z.object({
  rows: z.number().int(), valid: z.number().int(), invalid: z.number().int(), stays: z.number().int(), results: z.array(stayImportRow),
});
export type StayImportCheck = z.infer<typeof stayImportCheckResponse>;
/** The commit: how many stays and guests were booked, and the new stays' ids in file order. */
export const stayImportResponse = z.object({ stays: z.number().int(), guests: z.number().int(), ids: z.array(z.number().int()) });

const W: Authority = 'VOUCHER_USER_MANAGE';
const upload = { fields: importUploadFields, maxBytes: IMPORT_MAX_BYTES };

/** Authority: the same as booking one stay (VOUCHER_USER_MANAGE). */
export const stayImportEndpoints = {
  importTemplate: endpoint({
    method: 'GET', path: '/iot/v1/stay/importTemplate', access: W, kind: 'token',
    query: z.object({ format: z.enum(['csv', 'xlsx']).default('xlsx') }), response: exportResponse,
  }),
  /** The dry run: writes nothing. 400 on body.file for a file that is no sheet of these columns or passes a limit. */
  importCheck: endpoint({ method: 'POST', path: '/iot/v1/stay/importCheck', access: W, kind: 'multipart', response: stayImportCheckResponse, upload }),
  /**
   * Books every stay of the file in one transaction; any row with a problem: 400 whose errors name
   * `body.file.<row>.<column>` (nothing written). A repeated file is refused by its references (and overlaps).
   */
  import: endpoint({
    method: 'POST', path: '/iot/v1/stay/import', access: W, kind: 'multipart', response: stayImportResponse, upload,
    action: { label: h('批量导入入住预订', 'Import bookings') },
  }),
};
