/**
 * The device-log factory (one pattern for every log of a lock's activity, e.g. 上报日志,
 * 心跳日志, 报警日志, 开锁日志). A log states its table, its own columns and filters, its order, its
 * record shape and its export columns; the factory gives it:
 * - `list`: a page (the lock named by lockId/imei resolved first; time range on the log's time column;
 *   keyword on the lock: IMEI, name, room; its own order, or the contract's sortField/sortOrder),
 *   counted exactly or capped (db/count.ts) as the log says; in a keyset-able default order a full page
 *   carries `nextCursor`, and a `cursor` pages after that row without OFFSET (keyset.ts);
 * - `rows`: at most `limit` records in list order (exports, a lock's latest);
 * - `register`: the list and export routes of its contract endpoints (export: CSV or Excel with
 *   headers and enum labels in the caller's language, times in the operator's time zone, read page by
 *   page in one snapshot while a worker writes the file; http/export.ts).
 * Every query runs in the caller's tenant transaction.
 */
import type { Endpoint, LogCursor, LogFilter, Page, SortRequest } from '@iot/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable, SelectedFieldsFlat } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { locks } from '../../db/schema.js';
import { pagedForPrepare, pagingShape, preparedOn } from '../../db/prepared.js';
import { sortOrder } from '../../db/sql.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { type ExportColumn, type ExportPages, sendExport } from '../../http/export.js';
import { lockColumns } from '../lockDevice/sql.js';
import { CountMemory } from '../../db/count.js';
import { boundedTotal, logCounter } from './counts.js';
import { afterCursor, cursorPlaceholders, cursorValues, KEYSET_AT, type KeysetOrder, microsIso, takeNextCursor } from './keyset.js';
import { filterShape, type LogBind, lockIdOf, logConditions } from './filter.js';
import { cursorInWindow, inWindow, isRecentFirst, recentStart, windowHoldsPage } from './recent.js';
import { timeZoneOf } from '../tenant/settings.js';

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
  /** The id column; the log's `columns` select it as `id`. */
  idColumn: PgColumn;
  /** Which keyset order (keyset.ts) `orderBy` is for `filter`, undefined when it is none (no cursor paging). */
  keyset: (filter: F, byLock: boolean) => KeysetOrder | undefined;
  toRecord: (row: LogRow<C>) => R;
  /** `capped` for high-volume logs (at most LOG_COUNT_CAP counted), `exact` otherwise. */
  count: 'capped' | 'exact';
  /** Export file name without extension (e.g. `heartbeat-log`) and its columns. */
  exportName: string;
  exportColumns: readonly ExportColumn<R>[];
}

export interface DeviceLog<F extends LogFilter, R> {
  /**
   * A page; `remembered`: a capped log's large count may come from (and go to) that memory under `key`;
   * `cursor`: the rows after it (keyset-able order only; `current` is then only repeated).
   */
  list(tx: Tx, filter: F, current: number, size: number, remembered?: { memory: CountMemory; key: string }, cursor?: LogCursor): Promise<Page<R>>;
  rows(tx: Tx, filter: F, limit: number): Promise<R[]>;
  /** Registers the log's list and export endpoints (their queries: paging / format + timeZone, plus F). */
  register(app: FastifyInstance, endpoints: { list: Endpoint; export: Endpoint }, exportMax: number): void;
}

/** Builds a device log from its spec (see the module comment). */
export function defineDeviceLog<F extends LogFilter, C extends SelectedFieldsFlat, R>(spec: DeviceLogSpec<F, C, R>): DeviceLog<F, R> {
  const selected = { ...spec.columns, ...lockColumns };

  /** The where-clause of `filter` with the resolved `lockId` (undefined: none); `bind` as in logConditions. */
  function whereOf(filter: F, lockId: number | undefined, bind?: LogBind): SQL | undefined {
    return and(...logConditions(filter, lockId, spec.lockColumn, spec.timeColumn, bind), ...(spec.filters?.(filter) ?? []));
  }

  const keyed = { ...selected, [KEYSET_AT]: microsIso(spec.timeColumn) };
  const recentFirst = isRecentFirst(spec.table, spec.timeColumn);

  /** The keyset order of the list's order for `filter`: none with a requested sort. */
  function keysetOf(filter: F, byLock: boolean): KeysetOrder | undefined {
    const sort = filter as SortRequest;
    return sort.sortField && sort.sortField in spec.sortColumns(byLock) ? undefined : spec.keyset(filter, byLock);
  }

  /**
   * The rows' select in list order, without limit and offset; `keyed`: the rows carry KEYSET_AT. Without a
   * keyword the lock is LEFT joined (every row has its lock: lock_id is a non-null foreign key, in the
   * same data centre), so PostgreSQL reads the log's page in order first and then its locks. With an inner join it could
   * start from the data centre's locks instead, and did: at 100 M heartbeats a data centre's first page
   * fetched all 8,900 rows of its week through 100 locks x 8 day partitions and sorted them, 11,355
   * buffers and ~60 ms, against 62 buffers and ~7 ms reading the newest rows first
   * (bench/heartbeats-100m.ts). A keyword keeps the inner join: there the matching locks (trigram
   * indexes) are the place to start, and its condition (the room text is concat_ws, which is not strict)
   * would not let PostgreSQL turn a left join back into an inner one.
   */
  function pageQuery(tx: Tx, filter: F, where: SQL | undefined, byLock: boolean, withKey = false) {
    const sort = filter as SortRequest;
    const sortable = spec.sortColumns(byLock);
    const order = sort.sortField && sort.sortField in sortable
      ? sortOrder(sort, sortable, spec.idColumn, []) : spec.orderBy(filter, byLock);
    const rows = tx.select(withKey ? keyed : selected).from(spec.table);
    const joined = filter.keyword ? rows.innerJoin(locks, eq(locks.id, spec.lockColumn)) : rows.leftJoin(locks, eq(locks.id, spec.lockColumn));
    return joined.where(where).orderBy(...order);
  }

  async function select(tx: Tx, filter: F, lockId: number | undefined, limit: number, offset = 0): Promise<R[]> {
    const rows = await pageQuery(tx, filter, whereOf(filter, lockId), lockId !== undefined).limit(limit).offset(offset);
    return (rows as LogRow<C>[]).map(spec.toRecord);
  }

  /** A page's records and, in a keyset order, the next page's cursor. */
  type PageRows = { records: R[]; nextCursor?: string };
  function recordsOf(rows: unknown[], size: number, keyset: KeysetOrder | undefined): PageRows {
    const nextCursor = keyset ? takeNextCursor(rows as Record<string, unknown>[], size) : undefined;
    return { records: (rows as LogRow<C>[]).map(spec.toRecord), ...(nextCursor ? { nextCursor } : {}) };
  }

  /**
   * A list page. Without a keyword or a time range it is a prepared statement per filter shape
   * (db/prepared.ts): planning the tenant-wide page over every day partition of heartbeats cost
   * PostgreSQL 0.65 ms against 0.16 ms to run it, and building it in drizzle cost the server about as
   * much. The shape is every filter value but the lock (a placeholder): the logs' own filters and sort
   * fields are enums and flags; the paging is db/prepared.ts pagedForPrepare's. Planned with their values every time: a keyword (a generic plan cannot
   * know its pattern suits the trigram indexes) and a time range (it picks the day partitions, and a
   * generic plan of a range sorted every row of the lock in it instead of merging the partitions' index
   * order). A cursor (keyset order only) replaces the offset: the page is read from the row after it.
   */
  async function page(tx: Tx, filter: F, lockId: number | undefined, size: number, offset: number, cursor?: LogCursor): Promise<PageRows> {
    const byLock = lockId !== undefined;
    const keyset = keysetOf(filter, byLock);
    const after = keyset && cursor ? cursor : undefined;
    const skip = after ? 0 : offset;
    if (filter.keyword || filter.startTime || filter.endTime) {
      const where = and(whereOf(filter, lockId), after && keyset ? afterCursor(keyset, spec.timeColumn, spec.idColumn, after) : undefined);
      return recordsOf(await pageQuery(tx, filter, where, byLock, keyset !== undefined).limit(size).offset(skip), size, keyset);
    }
    /** The prepared page, from the window starting at `since` (recent.ts) or the whole log. */
    const read = (since?: Date) => {
      const shape = JSON.stringify([spec.exportName, byLock, pagingShape(size, skip), after ? 'cursor' : 'offset', since ?? 'all', filterShape(filter)]);
      const statement = preparedOn(tx, `device_log:${shape}`, (name) => {
        const where = and(whereOf(filter, lockId, (field) => sql.placeholder(field)), since ? inWindow(spec.timeColumn, since) : undefined,
          after && keyset ? afterCursor(keyset, spec.timeColumn, spec.idColumn, cursorPlaceholders) : undefined);
        return pagedForPrepare(pageQuery(tx, filter, where, byLock, keyset !== undefined).$dynamic(), size, skip).prepare(name);
      });
      return statement.execute({ lockId, limit: size, offset: skip, ...(after ? cursorValues(after) : {}) }) as Promise<Record<string, unknown>[]>;
    };
    const since = recentFirst && keyset ? recentStart() : undefined;
    if (since && (!after || cursorInWindow(after.t, since))) {
      const rows = await read(since);
      if (windowHoldsPage(rows, size, since)) return recordsOf(rows, size, keyset);
    }
    return recordsOf(await read(), size, keyset);
  }

  const counted = logCounter(spec, whereOf, recentFirst);

  const log: DeviceLog<F, R> = {
    async list(tx, filter, current, size, remembered, cursor) {
      const lockId = await lockIdOf(tx, filter);
      if (lockId === null) return { records: [], total: 0, current, size };
      const take = () => counted(tx, filter, lockId);
      const total = remembered && spec.count === 'capped' ? await remembered.memory.count(remembered.key, take) : await take();
      const rows = await page(tx, filter, lockId, size, (current - 1) * size, cursor);
      return { ...rows, ...boundedTotal(total, current, size, rows.records.length), current, size };
    },
    async rows(tx, filter, limit) {
      const lockId = await lockIdOf(tx, filter);
      return lockId === null ? [] : select(tx, filter, lockId, limit);
    },
    register(app, endpoints, exportMax) {
      const memory = new CountMemory();
      registerEndpoint(app, endpoints.list, ({ query, inTenant, request }) => {
        const { current, size, cursor, ...filter } = query as { current: number; size: number; cursor?: LogCursor };
        // The validated query's keys come in the schema's order, so one filter gives one key (never the page or cursor).
        const key = `${request.tenantId} ${JSON.stringify(filter)}`;
        return inTenant((tx) => log.list(tx, filter as unknown as F, current, size, { memory, key }, cursor));
      });
      registerEndpoint(app, endpoints.export, async ({ query, inTenant, request, reply }) => {
        const { format, timeZone, ...filter } = query as { format: 'csv' | 'xlsx'; timeZone?: string };
        // Read page by page in one snapshot while the file is written (http/export.ts): up to 100,000 rows.
        const rows: ExportPages<R> = (use) => inTenant(async (tx) => {
          const lockId = await lockIdOf(tx, filter as unknown as F);
          await use(async (offset, limit) => (lockId === null ? [] : select(tx, filter as unknown as F, lockId, limit, offset)));
        }, { snapshot: true });
        return sendExport({ request, reply, format, timeZone: timeZone ?? await timeZoneOf(app.database.system, request.tenantId), name: spec.exportName, columns: spec.exportColumns, rows, max: exportMax });
      }, { raw: true });
    },
  };
  return log;
}
