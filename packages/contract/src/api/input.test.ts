/**
 * Every request schema of the contract refuses what PostgreSQL cannot hold, checked on the
 * JSON Schema the OpenAPI document is generated from: each free string carries a pattern refusing NUL,
 * control characters and lone surrogates, each time is bounded to TIME_RANGE, each integer
 * is bounded, each body object is strict; every call that changes something names its system-log action.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiEndpoints } from './all.js';
import { INT4_MAX, int4Id, singleLine, text } from './input.js';
import { calendarDay, isoTime, TIME_RANGE } from './time.js';

type Node = Record<string, unknown>;

/** Every schema node of `schema`'s input JSON Schema, with its path. */
function nodes(schema: z.ZodType): { path: string; node: Node }[] {
  const found: { path: string; node: Node }[] = [];
  const walk = (node: unknown, path: string) => {
    if (!node || typeof node !== 'object') return;
    if (!Array.isArray(node) && 'type' in node) found.push({ path, node: node as Node });
    for (const [key, child] of Object.entries(node)) walk(child, `${path}/${key}`);
  };
  walk(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }), '');
  return found;
}

const compile = (pattern: string) => { try { return new RegExp(pattern, 'u'); } catch { return new RegExp(pattern); } };
const refuses = (node: Node, sample: string) => {
  const patterns = [node.pattern, ...((node.allOf as Node[] | undefined) ?? []).map((part) => part.pattern)].filter((p): p is string => typeof p === 'string');
  return patterns.some((pattern) => !compile(pattern).test(sample));
};

const inputs = apiEndpoints.flatMap((endpoint) => [['query', endpoint.query], ['body', endpoint.body]]
  .filter((pair): pair is [string, z.ZodType] => pair[1] !== undefined)
  .map(([part, schema]) => ({ name: `${endpoint.method} ${endpoint.path} ${part}`, part, schema })));

describe('request schemas', () => {
  it('text() refuses NUL, control characters and lone surrogates but keeps any other text, line breaks included', () => {
    const controls = ['\u0000', 'a\u0000', '\u0001', 'a\u001bb', '\u007F', '\u0085', '\u009F', '\u000B', '\u000C'];
    for (const bad of [...controls, '\uD800', 'x\uDFFFy', '\uDC00\uD800']) expect(text().safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    for (const good of ['', 'Zhang San', '张三', '🙂', '\uD83D\uDE42', "' OR 1=1 --", 'a\tb', 'line\nnext\r\n', '\u00A0é']) expect(text().safeParse(good).success).toBe(true);
    for (const bad of ['a\tb', 'a\nb', 'a\rb', ...controls]) expect(singleLine().safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    expect(singleLine().safeParse('固件 v1.2 (final).bin').success).toBe(true);
    expect(int4Id.safeParse(INT4_MAX).success).toBe(true);
    expect(int4Id.safeParse(INT4_MAX + 1).success).toBe(false);
  });

  it.each(inputs)('$name: free strings refuse NUL and lone surrogates', ({ schema }) => {
    const open = nodes(schema).filter(({ node }) => node.type === 'string' && node.enum === undefined && node.const === undefined);
    expect(open.filter(({ node }) => !refuses(node, 'a\u0000') || !refuses(node, 'a\uD800')).map(({ path }) => path)).toEqual([]);
  });

  it('times are ISO 8601 with an offset and days real calendar days, both within TIME_RANGE', () => {
    for (const good of [TIME_RANGE.min, TIME_RANGE.max, '2025-01-31T08:00:00+08:00', '1970-01-01T08:00:00+08:00']) expect(isoTime.safeParse(good).success, good).toBe(true);
    const far = ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00+14:00', '9999-12-31T23:59:59-12:00', '1969-12-31T23:59:59Z', '2200-01-01T00:00:00Z', '1970-01-01T07:59:59+08:00'];
    for (const bad of [...far, '2025-01-31', '2025-01-31T08:00:00', 'yesterday']) expect(isoTime.safeParse(bad).success, bad).toBe(false);
    for (const bad of far) expect(isoTime.safeParse(bad).error?.issues.map((issue) => issue.message)).toEqual(['time.range']);
    for (const good of ['1970-01-01', '2024-02-29', '2199-12-31']) expect(calendarDay.safeParse(good).success, good).toBe(true);
    for (const bad of ['1969-12-31', '2200-01-01', '0000-01-01', '2025-02-29', '2025-13-01', '2025-1-1', '20250101']) expect(calendarDay.safeParse(bad).success, bad).toBe(false);
  });

  it.each(inputs)('$name: every time is the shared isoTime or calendarDay (bounded to TIME_RANGE)', ({ schema }) => {
    const times = nodes(schema).filter(({ node }) => node.format === 'date-time' || node.format === 'date');
    const unbounded = times.filter(({ node }) => node.formatMinimum !== (node.format === 'date' ? TIME_RANGE.min.slice(0, 10) : TIME_RANGE.min)
      || node.formatMaximum !== (node.format === 'date' ? TIME_RANGE.max.slice(0, 10) : TIME_RANGE.max));
    expect(unbounded.map(({ path }) => path)).toEqual([]);
  });

  it.each(inputs)('$name: numbers are bounded by their column', ({ schema }) => {
    const numbers = nodes(schema).filter(({ node }) => node.type === 'integer' || node.type === 'number');
    const unbounded = numbers.filter(({ node }) => typeof node.maximum !== 'number' || typeof node.minimum !== 'number'
      || (node.maximum as number) > Number.MAX_SAFE_INTEGER || (node.minimum as number) < -Number.MAX_SAFE_INTEGER);
    expect(unbounded.map(({ path }) => path)).toEqual([]);
  });

  it.each(inputs.filter((input) => input.part === 'body'))('$name: objects refuse unknown fields', ({ schema }) => {
    const objects = nodes(schema).filter(({ node }) => node.type === 'object');
    expect(objects.filter(({ node }) => node.additionalProperties !== false).map(({ path }) => path)).toEqual([]);
  });

  it('every token call other than GET names its system-log action, except reads', () => {
    // The import dry runs (POST: they upload a file; locks and bookings) write nothing; a live stream ticket (one per
    // console tab and reconnect) changes nothing an operator did, and would flood the system log; nor
    // does marking one's own inbox read (a reading state, not an operation). Sign-out and
    // step-up write their own rows (`sign-out`, `step-up`, like a sign-in's).
    const reads = ['POST /iot/v1/operateUser/commandStates', 'POST /oauth/logout', 'POST /iot/v1/lockDevice/importCheck', 'POST /iot/v1/stay/importCheck', 'POST /iot/v1/events/ticket',
      'POST /iot/v1/notification/inbox/read', 'POST /iot/v1/twoFactor/stepUp'];
    const unnamed = apiEndpoints.filter((e) => e.method !== 'GET' && e.access !== 'public' && !e.action).map((e) => `${e.method} ${e.path}`);
    expect(unnamed.sort()).toEqual(reads.sort());
    for (const endpoint of apiEndpoints.filter((e) => e.action)) {
      expect(endpoint.action?.label['zh-CN']).toMatch(/\p{Script=Han}/u);
      expect(endpoint.action?.label['en-US']).toMatch(/^[A-Z]/);
    }
  });
});
