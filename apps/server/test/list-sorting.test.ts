/**
 * Server-side sorting of the log, command and credential lists, on PGlite and PostgreSQL,
 * over the demo's seeded week: every sort field of the contract orders the page both ways, and any
 * other field is a 400 naming query.sortField.
 */
import {
  ALERT_SORT_FIELDS, COMMAND_SORT_FIELDS, CREDENTIAL_SORT_FIELDS, HEARTBEAT_SORT_FIELDS, LOCK_USER_SORT_FIELDS, OPEN_RECORD_SORT_FIELDS,
  OPERATION_LOG_SORT_FIELDS, AUDIT_LOG_SORT_FIELDS, UPLINK_SORT_FIELDS,
} from '@iot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../src/crypto/secret-box.js';
import { seedDemoHistory } from '../src/demo/history/index.js';
import { simulatedImei } from '../src/demo/seed.js';
import { call, createTestContext, dataOf, signIn, skipSuite, type TestContext } from './helper.js';

const LISTS: [string, readonly string[]][] = [
  ['/iot/v1/logHeartbeat/list', HEARTBEAT_SORT_FIELDS], [`/iot/v1/logHeartbeat/list?imei=${simulatedImei(0)}`, HEARTBEAT_SORT_FIELDS],
  ['/iot/v1/logUpCommand/list', UPLINK_SORT_FIELDS], ['/iot/v1/lockOpenRecord/list', OPEN_RECORD_SORT_FIELDS],
  ['/iot/v1/lockAlert/list', ALERT_SORT_FIELDS], ['/iot/v1/lockAlert/list?activeFirst=true', ALERT_SORT_FIELDS],
  ['/iot/v1/logDownCommand/list', COMMAND_SORT_FIELDS], ['/iot/v1/SysOperateLog/getLogList', AUDIT_LOG_SORT_FIELDS],
  ['/iot/v1/operateUser/list', LOCK_USER_SORT_FIELDS], ['/iot/v1/operatePassword/list', CREDENTIAL_SORT_FIELDS],
  ['/iot/v1/operateCard/list', CREDENTIAL_SORT_FIELDS], ['/iot/v1/operateFp/list', CREDENTIAL_SORT_FIELDS],
  ['/iot/v1/operateUser/log', OPERATION_LOG_SORT_FIELDS], ['/iot/v1/operatePassword/log', OPERATION_LOG_SORT_FIELDS],
];

/** Comparable form of a cell: times as epoch ms, the rest as they are; null sorts as the database does (last ascending). */
const key = (value: unknown) => (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value) ? Date.parse(value) : value);

function inOrder(values: unknown[], order: 'ascend' | 'descend'): boolean {
  const present = values.map(key).filter((value) => value !== null && value !== undefined) as (number | string)[];
  return present.every((value, i) => i === 0 || (order === 'ascend' ? present[i - 1] as number | string <= value : present[i - 1] as number | string >= value));
}

describe.skipIf(skipSuite)('sorting lists on the server', () => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestContext({}, 12);
    await seedDemoHistory(ctx.database, createSecretBox(Buffer.alloc(32, 3)));
    token = await signIn(ctx.app);
  });
  afterAll(() => ctx?.close());

  const page = (url: string) => call(ctx.app, token, { method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}current=1&size=50` });

  it('orders every list by each of its sort fields, both ways', async () => {
    for (const [url, fields] of LISTS) {
      for (const field of fields) {
        for (const order of ['ascend', 'descend'] as const) {
          const records = dataOf(await page(`${url}${url.includes('?') ? '&' : '?'}sortField=${field}&sortOrder=${order}`)).records as Record<string, unknown>[];
          expect(records.length, `${url} ${field}`).toBeGreaterThan(1);
          expect(inOrder(records.map((record) => record[field]), order), `${url} ${field} ${order}: ${records.map((r) => r[field]).join(', ')}`).toBe(true);
        }
      }
    }
  });

  it('refuses any other sort field with a 400 naming it', async () => {
    for (const [url] of LISTS) {
      const refused = await page(`${url}${url.includes('?') ? '&' : '?'}sortField=passwordHash&sortOrder=ascend`);
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json().errors.map((error: { field: string }) => error.field), url).toContain('query.sortField');
    }
  });
});
