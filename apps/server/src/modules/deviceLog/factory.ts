/**
 * The device-log factory (one pattern for every log of a lock's activity, e.g. 上报日志,
 * 心跳日志, 报警日志, 开锁日志). A log states its table, its own columns and filters, its order, its
 * record shape and its export columns; the factory gives it:
 * - `list`: a page (the lock named by lockId/imei resolved first; time range on the log's time column;
 *   keyword on the lock: IMEI, name, room; its own order, or the contract's sortField/sortOrder),
 *   counted exactly or capped (count.ts) as the log says;
 * - `rows`: at most `limit` records in list order (exports, a lock's latest);
 * - `register`: the list and export routes of its contract endpoints (export: CSV or Excel with
 *   headers and enum labels in the caller's language, times in the operator's time zone, read page by
 *   page in one snapshot while a worker writes the file; http/export.ts).
 * Every query runs in the caller's tenant transaction.
 */
import type { Endpoint, LogFilter, Page, SortRequest } from '@iot/contract';
import { and, count, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable, SelectedFieldsFlat } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { locks } from '../../db/schema.js';
import { sortOrder } from '../../db/sql.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { type ExportColumn, type ExportPages, sendExport } from '../../http/export.js';
import { lockColumns } from '../lockDevice/sql.js';
import { cappedCount, CountMemory, type CountResult } from './count.js';
import { lockIdOf, logConditions } from './filter.js';
import { timeZoneOf } from '../tenant/service.js';

/** A selected row: the log's own columns plus the lock's (imei, lockName, room). */
export type LogRow<C extends SelectedFieldsFlat> = SelectResultFields<C & typeof lockColumns>;

export interface DeviceLogSpec<F extends LogFilter, C extends SelectedFieldsFlat, R> {
  table: PgTable;
  /** The column holding the row's lock id, and the one the time range filters. */
  lockColumn: PgColumn;
  timeColumn: PgColumn;
  /** The log's own columns (the lock's are added). */
  columns: C;
  /** Conditions of the log's own filters (undefined: no condition). */
  filters?: (filter: F) => (SQL | undefined)[];
  /** Order of the rows; `byLock`: the filter named one lock. */
  orderBy: (filter: F, byLock: boolean) => SQL[];
  /**
   * The columns of the contract's sort fields (sortField, sortOrder), per `byLock` (a tenant-wide time
   * order may need another column, e.g. the id); a requested sort is broken by `idColumn`.
   */
  sortColumns: (byLock: boolean) => Record<string, PgColumn | SQL>;
  idColumn: PgColumn;
  toRecord: (row: LogRow<C>) => R;
  /** `capped` for high-volume logs (at most LOG_COUNT_CAP counted), `exact` otherwise. */
  count: 'capped' | 'exact';
  /** Export file name without extension (e.g. `heartbeat-log`) and its columns. */
  exportName: string;
  exportColumns: readonly ExportColumn<R>[];
}

export interface DeviceLog<F extends LogFilter, R> {
  /** A page; `remembered`: a capped log's large count may come from (and go to) that memory under `key`. */
  list(tx: Tx, filter: F, current: number, size: number, remembered?: { memory: CountMemory; key: string }): Promise<Page<R>>;
  rows(tx: Tx, filter: F, limit: number): Promise<R[]>;
  /** Registers the log's list and export endpoints (their queries: paging / format + timeZone, plus F). */
  register(app: FastifyInstance, endpoints: { list: Endpoint; export: Endpoint }, exportMax: number): void;
}

/** Builds a device log from its spec (see the module comment). */
export function defineDeviceLog<F extends LogFilter, C extends SelectedFieldsFlat, R>(spec: DeviceLogSpec<F, C, R>): DeviceLog<F, R> {
  const selected = { ...spec.columns, ...lockColumns };

  /** The where-clause, undefined for none, null when the named lock is not in the tenant (no rows). */
  async function whereOf(tx: Tx, filter: F): Promise<{ where: SQL | undefined; byLock: boolean } | null> {
    const lockId = await lockIdOf(tx, filter);
    if (lockId === null) return null;
    const conditions = [...logConditions(filter, lockId, spec.lockColumn, spec.timeColumn), ...(spec.filters?.(filter) ?? [])];
    return { where: and(...conditions), byLock: lockId !== undefined };
  }

  async function select(tx: Tx, filter: F, found: { where: SQL | undefined; byLock: boolean }, limit: number, offset = 0): Promise<R[]> {
    const sort = filter as SortRequest;
    const sortable = spec.sortColumns(found.byLock);
    const order = sort.sortField && sort.sortField in sortable
      ? sortOrder(sort, sortable, spec.idColumn, []) : spec.orderBy(filter, found.byLock);
    const rows = await tx.select(selected).from(spec.table).innerJoin(locks, eq(locks.id, spec.lockColumn)).where(found.where)
      .orderBy(...order).limit(limit).offset(offset);
    return (rows as LogRow<C>[]).map(spec.toRecord);
  }

  async function counted(tx: Tx, filter: F, where: SQL | undefined): Promise<CountResult> {
    // The lock is joined only for the keyword: the lock id is resolved already.
    const matching = tx.select({ one: sql<number>`1` }).from(spec.table);
    const rows = (filter.keyword ? matching.innerJoin(locks, eq(locks.id, spec.lockColumn)) : matching).where(where);
    if (spec.count === 'capped') return cappedCount(tx, rows);
    const [row] = await tx.select({ n: count() }).from(rows.as('matching'));
    return { total: row?.n ?? 0 };
  }

  const log: DeviceLog<F, R> = {
    async list(tx, filter, current, size, remembered) {
      const found = await whereOf(tx, filter);
      if (found === null) return { records: [], total: 0, current, size };
      const take = () => counted(tx, filter, found.where);
      const total = remembered && spec.count === 'capped' ? await remembered.memory.count(remembered.key, take) : await take();
      return { records: await select(tx, filter, found, size, (current - 1) * size), ...total, current, size };
    },
    async rows(tx, filter, limit) {
      const found = await whereOf(tx, filter);
      return found === null ? [] : select(tx, filter, found, limit);
    },
    register(app, endpoints, exportMax) {
      const memory = new CountMemory();
      registerEndpoint(app, endpoints.list, ({ query, inTenant, request }) => {
        const { current, size, ...filter } = query as { current: number; size: number };
        // The validated query's keys come in the schema's order, so one filter gives one key.
        const key = `${request.tenantId} ${JSON.stringify(filter)}`;
        return inTenant((tx) => log.list(tx, filter as unknown as F, current, size, { memory, key }));
      });
      registerEndpoint(app, endpoints.export, async ({ query, inTenant, request, reply }) => {
        const { format, timeZone, ...filter } = query as { format: 'csv' | 'xlsx'; timeZone?: string };
        // Read page by page in one snapshot while the file is written (http/export.ts): up to 100,000 rows.
        const rows: ExportPages<R> = (use) => inTenant(async (tx) => {
          const found = await whereOf(tx, filter as unknown as F);
          await use(async (offset, limit) => (found === null ? [] : select(tx, filter as unknown as F, found, limit, offset)));
        }, { snapshot: true });
        return sendExport({ request, reply, format, timeZone: timeZone ?? await timeZoneOf(app.database.system, request.tenantId), name: spec.exportName, columns: spec.exportColumns, rows, max: exportMax });
      }, { raw: true });
    },
  };
  return log;
}
