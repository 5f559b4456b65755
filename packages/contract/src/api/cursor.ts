/**
 * Keyset paging of the high-volume logs: a page in the log's default order (newest first) carries
 * `nextCursor`, an opaque text naming its last row (its time and id); a list query with `cursor` returns
 * the rows after that row without skipping (no OFFSET), however deep. The text is base64url of JSON
 * `{ t, id }`: `t` the row's time as ISO 8601 UTC with up to microseconds (the database's precision, so
 * rows of one millisecond are neither skipped nor repeated), `id` the row's id. Anything else is a 400
 * on the `cursor` field (FIELD_MESSAGES CURSOR_INVALID), never a server error.
 */
import { z } from 'zod';
import { CURSOR_INVALID } from './input.js';
import { TIME_RANGE } from './time.js';

/** The last row of a page: time (ISO 8601 UTC, up to microseconds) and id. */
export interface LogCursor {
  t: string;
  id: number;
}

/** Longest cursor text accepted (a real one is about 60 characters). */
const CURSOR_MAX = 200;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const UTC_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** The cursor's fields once decoded; a time outside TIME_RANGE or a non-positive id is refused. */
const cursorFields = z.object({
  t: z.string().regex(UTC_MICROS).refine((t) => {
    const ms = Date.parse(t);
    return !Number.isNaN(ms) && ms >= Date.parse(TIME_RANGE.min) && ms <= Date.parse(TIME_RANGE.max);
  }),
  id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
}).strict();

/** The opaque text of `cursor` (base64url, no padding). */
export function encodeCursor(cursor: LogCursor): string {
  const bytes = new TextEncoder().encode(JSON.stringify({ t: cursor.t, id: cursor.id }));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The cursor `text` names, or undefined when it is not one encodeCursor wrote. */
export function decodeCursor(text: string): LogCursor | undefined {
  if (text.length > CURSOR_MAX || !BASE64URL.test(text)) return undefined;
  try {
    const json = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const parsed = cursorFields.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Query field `cursor`: the text -> LogCursor; a malformed one is an issue CURSOR_INVALID on the field. */
export const cursorField = z.string().max(CURSOR_MAX, { error: CURSOR_INVALID }).regex(BASE64URL, { error: CURSOR_INVALID }).transform((text, ctx) => {
  const cursor = decodeCursor(text);
  if (!cursor) {
    ctx.addIssue({ code: 'custom', message: CURSOR_INVALID });
    return z.NEVER;
  }
  return cursor;
});
