/**
 * Hostile pools of the contract fuzz (fuzz-support.ts) beyond its generic ones:
 * - HOSTILE_BY_FIELD: values by field name, the hook for limits that depend on the field;
 * - multipartArbitrary: hostile multipart forms for every endpoint that declares an
 * upload form (Endpoint.upload): its text fields plausible or hostile (control characters,
 * NUL, lone surrogates, huge), unknown fields and field names with control characters, and a `file`
 * part whose name is hostile (raw in the part header or RFC 5987 `filename*`) and whose content is a
 * small CSV, a zip that is no workbook, a workbook whose sheet is a zip bomb, or random bytes.
 */
import type { Endpoint } from '@iot/contract';
import fc from 'fast-check';
import { z } from 'zod';
import type { Json } from './fuzz-support.js';
import { importRows, sheetXml, workbookOf, xlsxOf } from './spreadsheet-fixtures.js';

/**
 * Hostile values by field name, on top of the shared pools: far-range times for the time fields; the
 * hook for limits that depend on the field (e.g. a device type's ratings: add `overCurrentA: [630]`).
 */
export const HOSTILE_BY_FIELD: Record<string, readonly Json[]> = {
  startTime: ['0000-01-01T00:00:00Z'], endTime: ['9999-12-31T23:59:59-12:00'], validFrom: ['0001-01-01T00:00:00+14:00'], validTo: ['2200-01-01T00:00:00Z'],
  at: ['0000-01-01T00:00:00Z'], after: ['9999-12-31T23:59:59-12:00'], from: ['0000-01-01', '9999-12-31'], to: ['1969-12-31', '2200-01-01'],
};

const BOUNDARY = '----fuzz0b7e';
const CRLF = '\r\n';

/** File names: control characters of every class, far too long, odd but legal. */
export const FILE_NAMES = [
  'locks.csv', 'a\u0000.csv', '\u0001', 'x\u001b[31m.csv', 'del\u007f.xlsx', 'nel\u0085.csv', 'tab\t.csv', 'line\nbreak.csv', 'cr\r.csv',
  '\uD800.csv', '长'.repeat(300), '../../etc/passwd', '', ' ', 'CON', '固件 v1 (最终).bin', '%00.csv',
];
/** Text values of form fields: control characters, NUL, lone surrogates, far-range versions, huge. */
const FIELD_VALUES = ['ZG-NB100', '9.0.1', '1.0.0+build.2', 'a\u0000b', '\u0001', 'a\u001bb', '\u007f', '\u0085', 'a\nb', '\uDC00', '', ' ', 'x'.repeat(10_000), '修复'];
const FIELD_NAMES = ['extra', 'file', 'ex\u0001tra', 'n\u0000', '__proto__'];

/** Workbooks: a small real one, and a zip bomb (8 MiB of spaces in its sheet, deflated about 1,000 times). */
const WORKBOOKS = [await xlsxOf(importRows(3)), await workbookOf(sheetXml([['IMEI']], ' '.repeat(8 * 1024 * 1024)))];
/** File contents: CSV (good and not), workbooks, a zip that is no workbook, random bytes. */
const CONTENTS: fc.Arbitrary<Buffer> = fc.oneof(
  fc.constantFrom(...WORKBOOKS),
  fc.constantFrom('IMEI,名称,设备类型\n861234500000001,一号,ZG-NB100\n', 'IMEI\n', '', 'a,b\n\u0000', 'IMEI,名称,设备类型\n\u001b,\u0001,\u007f\n').map((text) => Buffer.from(text)),
  fc.constant(Buffer.from('504b0304140000000800000000000000000000000000000000000000', 'hex')),
  fc.uint8Array({ maxLength: 2_048 }).map((bytes) => Buffer.from(bytes)),
);

/** The text field names of an endpoint's upload form. */
function uploadFields(endpoint: Endpoint): string[] {
  const schema = endpoint.upload?.fields;
  return schema ? Object.keys((z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: object }).properties ?? {}) : [];
}

/** A multipart body for `endpoint`'s upload form, with the content type that names its boundary. */
export function multipartArbitrary(endpoint: Endpoint): fc.Arbitrary<{ payload: Buffer; type: string }> {
  const known = uploadFields(endpoint);
  const field = fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...(known.length ? known : ['extra'])) }, { weight: 1, arbitrary: fc.constantFrom(...FIELD_NAMES) }), fc.constantFrom(...FIELD_VALUES));
  return fc.record({
    fields: fc.array(field, { maxLength: known.length + 2 }),
    fileName: fc.constantFrom(...FILE_NAMES),
    encoded: fc.boolean(),
    content: CONTENTS,
    withFile: fc.integer({ min: 0, max: 4 }).map((n) => n > 0), // four in five forms carry a file
  }).map(({ fields, fileName, encoded, content, withFile }) => {
    const parts = fields.map(([name, value]) => Buffer.from(`--${BOUNDARY}${CRLF}Content-Disposition: form-data; name="${name}"${CRLF}${CRLF}${value}${CRLF}`));
    // Raw, a line break would end the header: such names travel encoded (RFC 5987), as clients send them.
    const disposition = encoded || /[\r\n]/.test(fileName) ? `filename*=UTF-8''${encodeURIComponent(fileName.replace(/[\uD800-\uDFFF]/g, '\uFFFD'))}` : `filename="${fileName}"`;
    const file = withFile ? [Buffer.from(`--${BOUNDARY}${CRLF}Content-Disposition: form-data; name="file"; ${disposition}${CRLF}Content-Type: application/octet-stream${CRLF}${CRLF}`), content, Buffer.from(CRLF)] : [];
    return { payload: Buffer.concat([...parts, ...file, Buffer.from(`--${BOUNDARY}--${CRLF}`)]), type: `multipart/form-data; boundary=${BOUNDARY}` };
  });
}
