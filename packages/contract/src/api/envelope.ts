/**
 * The response envelope of every JSON API call: `{ success, code, message, data }`.
 * Validation errors add `errors`: the failing fields with messages in both languages.
 */
import { z } from 'zod';
import { INT4_MAX } from './input.js';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, SORT_ORDERS } from '../constants.js';
import type { LocalizedText } from '../i18n.js';
import type { ErrorCode } from './errors.js';

/** One failing field: dotted path (e.g. `body.username`), localized message. */
export interface FieldError {
  field: string;
  message: LocalizedText;
}

export interface SuccessEnvelope<T> {
  success: true;
  code: 'OK';
  message: string;
  data: T;
}

export interface ErrorEnvelope {
  success: false;
  code: ErrorCode;
  /** In the caller's language (Accept-Language; Chinese by default). */
  message: string;
  data: null;
  errors?: FieldError[];
}

export type Envelope<T> = SuccessEnvelope<T> | ErrorEnvelope;

/** Query of every list: 1-based page `current` and page `size` (default 10, at most 500). */
export const pageQuery = z.object({
  current: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  size: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** Sort directions of a list (antd's names, so the table's state goes to the URL and the API as is). */
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * Query fields of a list the server can sort: `sortField` (one of `fields`, the record's field names)
 * and `sortOrder` (ascend | descend, default descend when only the field is given). Without
 * `sortField` the list keeps its own order.
 */
export function sortFields<const F extends readonly [string, ...string[]]>(fields: F) {
  return { sortField: z.enum(fields).optional(), sortOrder: z.enum(SORT_ORDERS).optional() };
}
/** A list's sort request as parsed from its query. */
export interface SortRequest<F extends string = string> { sortField?: F; sortOrder?: SortOrder }

/** A page of records. */
export interface Page<T> {
  records: T[];
  total: number;
  current: number;
  size: number;
  /** True when `total` is a lower bound: high-volume logs count exactly only up to a cap (shown "10000+"). */
  totalCapped?: boolean;
  /** Keyset lists (api/cursor.ts): the `cursor` of the page after this one, when this page is full and in the list's default order. */
  nextCursor?: string;
}

/** Zod schema of a page of `record`. */
export const pageOf = <T extends z.ZodType>(record: T) =>
  z.object({
    records: z.array(record), total: z.number().int(), current: z.number().int(), size: z.number().int(),
    totalCapped: z.boolean().optional(), nextCursor: z.string().optional(),
  });
