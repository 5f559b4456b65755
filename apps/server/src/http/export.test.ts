import { EXPORT_TRUNCATED_HEADER, LOG_EXPORT_MAX } from '@iot/contract';
import { parse } from 'csv-parse/sync';
import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorkers } from '../workers/pool.js';
import { type ExportColumn, type ExportPages, sendExport } from './export.js';

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

/** The whole body of an export stream. */
async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

// The export is written by a real worker thread (workers/spreadsheet-worker.ts, through tsx here).
const workers = createWorkers();
const log = { warn: () => {} };
const requestWith = (headers: Record<string, string>) => ({ headers, server: { workers }, log }) as unknown as FastifyRequest;

describe('log export', () => {
  afterAll(() => workers.close());

  it('caps rows at LOG_EXPORT_MAX and says so in a header and a last line', async () => {
    const { reply, headers } = fakeReply();
    const rows = Array.from({ length: LOG_EXPORT_MAX + 1 }, (_, n) => ({ n, text: 'x' }));
    const csv = (await bytesOf(await sendExport({ request: requestWith({}), reply, format: 'csv', name: 't', columns: COLUMNS, rows }))).toString();
    expect(headers[EXPORT_TRUNCATED_HEADER]).toBe('true');
    const parsed = parse(csv, { bom: true }) as string[][];
    expect(parsed).toHaveLength(LOG_EXPORT_MAX + 2); // header + rows + note
    expect(parsed.at(-1)?.[0]).toContain(String(LOG_EXPORT_MAX));
  });

  it('defuses formula-like cells and quotes with the library, in the caller\'s language', async () => {
    const { reply, headers } = fakeReply();
    const rows = [{ n: 1, text: '=HYPERLINK("x")' }, { n: 2, text: 'a,"b"\nc' }];
    const request = requestWith({ 'accept-language': 'en-US' });
    const csv = (await bytesOf(await sendExport({ request, reply, format: 'csv', name: 't', columns: COLUMNS, rows }))).toString();
    expect(headers[EXPORT_TRUNCATED_HEADER]).toBe('false');
    expect(parse(csv, { bom: true })).toEqual([['No', 'Text'], ['1', `'=HYPERLINK("x")`], ['2', 'a,"b"\nc']]);
  });

  it('writes Excel with labels and times as date cells in the given zone, the same rows in the same order', async () => {
    const { reply } = fakeReply();
    type Event = { at: string; kind: string };
    const columns: ExportColumn<Event>[] = [
      { header: { 'zh-CN': '时间', 'en-US': 'Time' }, value: (r) => r.at, time: true },
      { header: { 'zh-CN': '类型', 'en-US': 'Kind' }, value: (r) => r.kind, labels: { open: { 'zh-CN': '开门', 'en-US': 'Opened' } } },
    ];
    const rows = Array.from({ length: 4_500 }, (_, n) => ({ at: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(), kind: n % 2 ? 'open' : 'other' }));
    const bytes = await bytesOf(await sendExport({ request: requestWith({ 'accept-language': 'zh-CN' }), reply, format: 'xlsx', name: 'events', columns, rows, timeZone: 'Asia/Shanghai' }));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.rowCount).toBe(4_501);
    expect(sheet?.getRow(1).values).toEqual([undefined, '时间 (Asia/Shanghai)', '类型']);
    // Times are real date cells showing the zone's wall-clock time (Excel dates carry no zone).
    expect(sheet?.getRow(2).values).toEqual([undefined, new Date('2025-01-01T08:00:00Z'), 'other']);
    expect(sheet?.getRow(4_501).values).toEqual([undefined, new Date('2025-01-01T09:14:59Z'), '开门']);
    expect(sheet?.getRow(2).getCell(1).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
  });

  it('reads pages in order while writing, one row past the cap deciding the truncation header first', async () => {
    const { reply, headers } = fakeReply();
    const all = Array.from({ length: 4_500 }, (_, n) => ({ n, text: `row ${n}` }));
    const reads: [number, number][] = [];
    const rows: ExportPages<Row> = async (use) => use(async (offset, limit) => { reads.push([offset, limit]); return all.slice(offset, offset + limit); });
    const csv = (await bytesOf(await sendExport({ request: requestWith({ 'accept-language': 'en-US' }), reply, format: 'csv', name: 't', columns: COLUMNS, rows, max: 4_000 }))).toString();
    expect(headers[EXPORT_TRUNCATED_HEADER]).toBe('true');
    expect(reads).toEqual([[4_000, 1], [0, 2_000], [2_000, 2_000]]);
    const parsed = parse(csv, { bom: true }) as string[][];
    expect(parsed.slice(1, 4_001).map((row) => Number(row[0]))).toEqual(all.slice(0, 4_000).map((row) => row.n));
    expect(parsed.at(-1)?.[0]).toContain('4000');
    // A failure before the headers is the caller's error answer, not a broken download.
    const failing: ExportPages<Row> = async (use) => use(async () => { throw new Error('database gone'); });
    await expect(sendExport({ request: requestWith({}), reply, format: 'csv', name: 't', columns: COLUMNS, rows: failing })).rejects.toThrow('database gone');
  });
});
