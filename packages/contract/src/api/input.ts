/**
 * Building blocks of every request schema:
 * - `text()`: any free text. Refuses U+0000 and lone UTF-16 surrogates, which PostgreSQL cannot store
 *   (text and jsonb), and every other control character but tab and line breaks (C0, DEL, C1: invisible,
 *   they garble logs, exports and terminals); expressed as a `pattern`, so OpenAPI shows it.
 *   `singleLine()` (file names) refuses tab and line breaks too.
 * - Times: `isoTime` and `calendarDay` (api/time.ts), bounded to TIME_RANGE.
 * - `int4Id` / `int8Id` / `int4`: integers bounded by the range of the column they are compared with
 *   (int4 serials: 1..2,147,483,647; bigserials: up to Number.MAX_SAFE_INTEGER).
 * - Bodies are strict (`z.strictObject`): an unknown field is refused with 400 naming it, never
 *   ignored, so what a caller sends is exactly what is validated and logged. Query strings are
 *   stripped (unknown parameters are dropped): browsers and proxies add cache-busters.
 */
import { z } from 'zod';

/** Largest value of a PostgreSQL int4 (integer, serial) column. */
export const INT4_MAX = 2_147_483_647;

/**
 * Text PostgreSQL can store and people can read: no NUL, no unpaired surrogate, no control character
 * but tab, line feed and carriage return (U+0001-0008, 000B, 000C, 000E-001F, DEL 007F, C1 0080-009F).
 * With the `u` flag a well-formed pair is one code point outside D800-DFFF, so only lone surrogates match.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
export const SAFE_TEXT_PATTERN = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uD800-\uDFFF]*$/u;
/** SAFE_TEXT_PATTERN without tab and line breaks either: one line of text (file names). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
export const SAFE_LINE_PATTERN = /^[^\u0000-\u001F\u007F-\u009F\uD800-\uDFFF]*$/u;

/** Message key of a refused text; the server shows it in both languages (FIELD_MESSAGES). */
export const UNSAFE_TEXT = 'text.unsafe';

/** Message key: a password-digit range whose minimum exceeds its maximum (device types). */
export const DIGITS_ORDER = 'digits.order';
/** Message key: a range whose minimum exceeds its maximum (device type ratings). */
export const RANGE_ORDER = 'range.order';
/** Message key: a device type's default heartbeat outside its own heartbeat range. */
export const HEARTBEAT_IN_RANGE = 'heartbeat.inRange';
/** Message key: an air switch type without electrical ratings, or a lock type with them. */
export const ELECTRICAL_KIND = 'electrical.kind';
/** Message key: a list naming one unlock method twice (device types). */
export const METHODS_UNIQUE = 'methods.unique';
/** Message key: an IMEI that is not 15 digits with a valid Luhn check digit (lock registry). */
export const IMEI_INVALID = 'imei.invalid';
/** Message key: not a semantic version (firmware). */
export const VERSION_SEMVER = 'version.semver';
/** Message key: not a time of day HH:mm (rollout windows). */
export const TIME_HHMM = 'time.hhmm';

/** Message key: a time not ISO 8601 with an offset. */
export const TIME_ISO = 'time.iso';
/** Message key: a time or day outside TIME_RANGE (api/time.ts). */
export const TIME_OUT_OF_RANGE = 'time.range';
/** Message key: not an existing calendar day YYYY-MM-DD. */
export const DAY_INVALID = 'day.invalid';
/** Message key: a range whose start is after its end (reported on the end field). */
export const TIME_ORDER = 'time.order';

/** Message key: a list's page cursor that is not one the list gave (api/cursor.ts). */
export const CURSOR_INVALID = 'cursor.invalid';

/** Message key: a device target naming none or more than one of groupId, imeis, filter (lock groups). */
export const TARGET_ONE = 'target.one';

/** Localized messages of the contract's own checks, by the key the schema reports. */
export const FIELD_MESSAGES: Record<string, { 'zh-CN': string; 'en-US': string }> = {
  [UNSAFE_TEXT]: { 'zh-CN': '包含不允许的字符（控制字符或不成对的代理字符）', 'en-US': 'contains a character that is not allowed (a control character or an unpaired surrogate)' },
  [TIME_ISO]: { 'zh-CN': '时间须为带时区的 ISO 8601 格式，如 2025-01-31T08:00:00+08:00', 'en-US': 'must be an ISO 8601 time with an offset, e.g. 2025-01-31T08:00:00+08:00' },
  [TIME_OUT_OF_RANGE]: { 'zh-CN': '时间须在 1970-01-01 至 2199-12-31（UTC）之间', 'en-US': 'must lie between 1970-01-01 and 2199-12-31 (UTC)' },
  [DAY_INVALID]: { 'zh-CN': '日期须为存在的日期 YYYY-MM-DD', 'en-US': 'must be an existing day YYYY-MM-DD' },
  [TIME_ORDER]: { 'zh-CN': '结束时间不能早于开始时间', 'en-US': 'the end may not be before the start' },
  [DIGITS_ORDER]: { 'zh-CN': '最大位数不能小于最小位数', 'en-US': 'the maximum number of digits may not be below the minimum' },
  [RANGE_ORDER]: { 'zh-CN': '最大值不能小于最小值', 'en-US': 'the maximum may not be below the minimum' },
  [HEARTBEAT_IN_RANGE]: { 'zh-CN': '默认心跳间隔须在该类型的心跳范围内', 'en-US': 'the default heartbeat interval must lie within the type\'s heartbeat range' },
  [ELECTRICAL_KIND]: { 'zh-CN': '空开类型须填写电气额定值，门锁类型不填', 'en-US': 'air switch types need electrical ratings; lock types have none' },
  [METHODS_UNIQUE]: { 'zh-CN': '开锁方式不能重复', 'en-US': 'an unlock method is listed twice' },
  [TARGET_ONE]: { 'zh-CN': '须且只能指定 groupId、imeis、filter 之一', 'en-US': 'give exactly one of groupId, imeis, filter' },
  [VERSION_SEMVER]: { 'zh-CN': '版本号须为语义化版本，如 2.1.0', 'en-US': 'must be a semantic version such as 2.1.0' },
  [TIME_HHMM]: { 'zh-CN': '时间须为 HH:mm', 'en-US': 'must be a time of day HH:mm' },
  [CURSOR_INVALID]: { 'zh-CN': '分页游标无效，请从第一页重新翻页', 'en-US': 'not a valid page cursor; page again from the first page' },
  [IMEI_INVALID]: { 'zh-CN': 'IMEI 须为 15 位数字且校验位（Luhn）正确', 'en-US': 'the IMEI must be 15 digits with a valid (Luhn) check digit' },
};

/** Free text of a request: a string without NUL, lone surrogates or control characters but tab and line breaks (trim/min/max are added by the caller). */
export const text = () => z.string().regex(SAFE_TEXT_PATTERN, { error: UNSAFE_TEXT });
/** One line of free text: text() without tab or line breaks either. */
export const singleLine = () => z.string().regex(SAFE_LINE_PATTERN, { error: UNSAFE_TEXT });
/** An uploaded file's name as the client sent it: one line, at most 255 characters (a file system's limit). */
export const uploadFileName = singleLine().max(255);

/** A trimmed free-text search term of at most `max` characters. */
export const keyword = (max = 64) => text().trim().max(max);

/** An id of an int4 (serial) column, from JSON or a query string. */
export const int4Id = z.coerce.number().int().min(1).max(INT4_MAX);
/** An id of an int8 (bigserial) column, from JSON or a query string. */
export const int8Id = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** Query-string boolean: "true"/"false"/"1"/"0". */
export const queryFlag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** True when `value` names an IANA time zone this runtime knows (e.g. Asia/Shanghai, UTC). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone name (e.g. Asia/Shanghai). */
export const timeZoneName = text().max(64).refine(isTimeZone, { message: 'unknown time zone' });

/** A buffer, minutes: 0 to 1440 (one day). */
export const bufferMinutes = z.number().int().min(0).max(24 * 60);
