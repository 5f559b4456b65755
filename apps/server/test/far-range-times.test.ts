/**
 * Every time a request may name (found in the contract's
 * endpoint list by its JSON Schema format, date-time or date) refuses a far-range value with a 400
 * naming the field in both languages (FIELD_MESSAGES TIME_OUT_OF_RANGE), never a 500 from PostgreSQL
 * (SQLSTATE 22008), and takes the first and last instant of TIME_RANGE; on PGlite and PostgreSQL.
 */
import { apiEndpoints, type Endpoint, FIELD_MESSAGES, TIME_ISO, TIME_OUT_OF_RANGE, TIME_RANGE } from '@iot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, createTestContext, signIn, skipSuite, type TestContext } from './helper.js';

type Node = Record<string, unknown>;
/** A time field; `name` is its path in the query or body (`schedule.localStartTime` in a nested object, `schedules.0.localStartTime` in an array's item). */
interface TimeField { endpoint: Endpoint; part: 'query' | 'body'; name: string; day: boolean; bases: Record<string, unknown>[] }

/** Sets `value` at the dotted `path` of `target` (nested objects; a `0` is an array's first item). */
function setAt(target: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const keys = path.split('.');
  let node = target;
  keys.slice(0, -1).forEach((key, i) => {
    if (node[key] === undefined) node[key] = keys[i + 1] === '0' ? [] : {};
    node = node[key] as Record<string, unknown>;
  });
  node[keys.at(-1) as string] = value;
  return target;
}

/**
 * The bodies to send a field in: one per combination of the discriminators (`const` values) found,
 * each at its own path, so a time nested in a discriminated union (accessSchedule's
 * `schedule.localStartTime` under `action` and `schedule.kind`) is reached (at most 50 combinations).
 */
function basesOf(consts: Map<string, Set<unknown>>): Record<string, unknown>[] {
  let bases: Record<string, unknown>[] = [{}];
  for (const [path, values] of consts) {
    bases = bases.flatMap((base) => [base, ...[...values].map((value) => setAt(structuredClone(base), path, value))]).slice(0, 50);
  }
  return bases;
}

/** The time fields of every endpoint, with the bodies to send them in. */
function timeFields(): TimeField[] {
  const found: TimeField[] = [];
  for (const endpoint of apiEndpoints) {
    for (const part of ['query', 'body'] as const) {
      const schema = endpoint[part];
      if (!schema) continue;
      const names = new Map<string, boolean>();
      const consts = new Map<string, Set<unknown>>();
      const walk = (node: unknown, path: string) => {
        if (!node || typeof node !== 'object') return;
        const properties = (node as Node).properties as Record<string, Node> | undefined;
        for (const [name, property] of Object.entries(properties ?? {})) {
          const at = path ? `${path}.${name}` : name;
          if (property.format === 'date-time' || property.format === 'date') names.set(at, property.format === 'date');
          if (property.const !== undefined) consts.set(at, (consts.get(at) ?? new Set()).add(property.const));
          walk(property, at);
        }
        for (const [key, child] of Object.entries(node)) {
          if (key === 'items') walk(child, path ? `${path}.0` : '0'); // an array's first item
          else if (key !== 'properties') walk(child, path);
        }
      };
      walk(z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }), '');
      const bases = basesOf(consts);
      for (const [name, day] of names) found.push({ endpoint, part, name, day, bases });
    }
  }
  return found;
}

const FIELDS = timeFields();
/** Far-range instants z.iso.datetime accepts: year 0, offsets carrying past year 0 or 9999, just outside TIME_RANGE. */
const FAR = ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00+14:00', '9999-12-31T23:59:59-12:00', '1969-12-31T23:59:59Z', '2200-01-01T00:00:00Z'];
const FAR_DAYS = ['0000-01-01', '1969-12-31', '2200-01-01', '9999-12-31'];
const TIME_MESSAGES = [TIME_OUT_OF_RANGE, TIME_ISO].map((key) => JSON.stringify(FIELD_MESSAGES[key]));

describe.skipIf(skipSuite)('far-range times', () => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestContext({}, 2);
    token = await signIn(ctx.app);
  });
  afterAll(() => ctx?.close());

  /** Sends `value` in `field` (once per base body); the errors of each answer, by field. */
  async function send(field: TimeField, value: string) {
    const answers = [];
    for (const base of field.part === 'query' ? [{}] : field.bases) {
      const { method, path } = field.endpoint;
      const response = field.part === 'query'
        ? await call(ctx.app, token, { method, url: `${path}?${field.name}=${encodeURIComponent(value)}` })
        : await call(ctx.app, token, { method, url: path, payload: setAt(structuredClone(base), field.name, value) });
      const errors = response.statusCode === 400 ? (response.json().errors as { field: string; message: unknown }[]) : [];
      answers.push({ status: response.statusCode, errors: errors.filter((error) => error.field === `${field.part}.${field.name}`) });
    }
    return answers;
  }

  it('finds the time fields in the contract (list filters, validity windows, energy days)', () => {
    const names = new Set(FIELDS.map((field) => `${field.endpoint.path} ${field.name}`));
    for (const expected of ['/iot/v1/SysOperateLog/getLogList startTime', '/iot/v1/operateCard/log endTime', '/iot/v1/lockOpenRecord/list startTime', '/iot/v1/logHeartbeat/batteryList startTime', '/iot/v1/wx/orderInfo/list startTime']) {
      expect(names).toContain(expected);
    }
    expect(FIELDS.some((field) => field.day)).toBe(true);
    expect(FIELDS.some((field) => field.part === 'body')).toBe(true);
    expect(FIELDS.length).toBeGreaterThan(30);
  });

  it('answers a far-range time with a 400 naming the field in both languages, on every endpoint', async () => {
    const wrong: string[] = [];
    for (const field of FIELDS) {
      for (const value of field.day ? FAR_DAYS : FAR) {
        const answers = await send(field, value);
        const named = answers.some((answer) => answer.status === 400 && answer.errors.some((error) => JSON.stringify(error.message) === TIME_MESSAGES[0]));
        if (!named || answers.some((answer) => answer.status >= 500)) wrong.push(`${field.endpoint.method} ${field.endpoint.path} ${field.name}=${value}: ${JSON.stringify(answers)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('takes the first and the last instant of the range (other checks of the call may still refuse it)', async () => {
    const wrong: string[] = [];
    for (const field of FIELDS) {
      const edges = field.day ? [TIME_RANGE.min.slice(0, 10), TIME_RANGE.max.slice(0, 10)] : [TIME_RANGE.min, '2199-12-31T23:59:59+00:00'];
      for (const value of edges) {
        const answers = await send(field, value);
        const timeRefused = answers.some((answer) => answer.errors.some((error) => TIME_MESSAGES.includes(JSON.stringify(error.message))));
        if (timeRefused || answers.some((answer) => answer.status >= 500)) wrong.push(`${field.endpoint.path} ${field.name}=${value}: ${JSON.stringify(answers)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
