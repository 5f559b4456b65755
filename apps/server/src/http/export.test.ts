import { EXPORT_TRUNCATED_HEADER, LOG_EXPORT_MAX } from '@iot/contract';
import { parse } from 'csv-parse/sync';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { type ExportColumn, sendExport } from './export.js';

type Row = { n: number; text: string };
const COLUMNS: ExportColumn<Row>[] = [
  { header: { 'zh-CN': '编号', 'en-US': 'No' }, value: (r) => r.n },
  { header: { 'zh-CN': '文本', 'en-US': 'Text' }, value: (r) => r.text },
];

function fakeReply() {
  const headers: Record<string, string> = {};
  const reply = { header: (k: string, v: string) => { headers[k] = v; return reply; }, type: (t: string) => { headers['content-type'] = t; return reply; } };
  return { reply: reply as unknown as FastifyReply, headers };
}

describe('log export', () => {
  it('caps rows at LOG_EXPORT_MAX and says so in a header and a last line', () => {
    const { reply, headers } = fakeReply();
    const rows = Array.from({ length: LOG_EXPORT_MAX + 1 }, (_, n) => ({ n, text: 'x' }));
    const csv = sendExport({ request: { headers: {} } as FastifyRequest, reply, format: 'csv', name: 't', columns: COLUMNS, rows }) as string;
    expect(headers[EXPORT_TRUNCATED_HEADER]).toBe('true');
    const parsed = parse(csv, { bom: true }) as string[][];
    expect(parsed).toHaveLength(LOG_EXPORT_MAX + 2); // header + rows + note
    expect(parsed.at(-1)?.[0]).toContain(String(LOG_EXPORT_MAX));
  });

  it('defuses formula-like cells and quotes with the library, in the caller\'s language', () => {
    const { reply, headers } = fakeReply();
    const rows = [{ n: 1, text: '=HYPERLINK("x")' }, { n: 2, text: 'a,"b"\nc' }];
    const request = { headers: { 'accept-language': 'en-US' } } as unknown as FastifyRequest;
    const csv = sendExport({ request, reply, format: 'csv', name: 't', columns: COLUMNS, rows }) as string;
    expect(headers[EXPORT_TRUNCATED_HEADER]).toBe('false');
    expect(parse(csv, { bom: true })).toEqual([['No', 'Text'], ['1', `'=HYPERLINK("x")`], ['2', 'a,"b"\nc']]);
  });
});
