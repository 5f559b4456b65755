/**
 * The alert lifecycle of every device kind, stated once over the one table `alerts` (db/schema-alert.ts,
 * owned by this module). Each kind is an AlertKindDescriptor (lock.ts, air-switch.ts); the statements
 * run for the descriptor they are given, in the caller's transaction:
 * - raise: a key with no active alert gets one (state 'active', occurrences 1); a raise while one is
 *   active counts an occurrence (occurrences + 1, last_at now, the new detail if it has one) through the
 *   table's partial unique index on active alerts (`on conflict (key) where state = 'active' do update`);
 * - clear: the active alert of the key gets state 'cleared' and cleared_at now; with none active, a no-op;
 * - acknowledge: an operator's name, now and a note on alerts not yet acknowledged.
 * A batch of changes is applied in the order given, split into rounds in which each key appears once:
 * PostgreSQL refuses an ON CONFLICT DO UPDATE that touches one row twice in a statement. Usually there is
 * one round. Every raise and clear emits the kind's event for each row it wrote (events/emit.ts).
 * What differs between kinds (the key, the event, whether a repeat takes the new severity, what a clear
 * writes besides its state) is the descriptor's policy. Column names are the descriptor's constants
 * (sql.identifier); every value is a parameter. Every statement names its kind, so an id of another
 * kind's alert is not touched.
 */
import type { DeviceKind, DomainEvent } from '@iot/contract';
import { type SQLChunk, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { emitAll } from '../../events/emit.js';

/** One column of a kind's alert key: its name, the SQL type of its array parameter, its value in a change. */
export interface AlertKeyColumn<Key> {
  column: string;
  arrayType: 'int[]' | 'text[]';
  of: (key: Key) => number | string;
}

/** How one device kind keeps its alerts (see the module comment). */
export interface AlertKindDescriptor<Key, Row> {
  /** The device kind (alerts.device_kind). */
  deviceKind: DeviceKind;
  /** The alert key, in the column order of the kind's partial unique index on active alerts. */
  keys: readonly AlertKeyColumn<Key>[];
  /** The columns each raise and clear returns to build the kind's events. */
  eventColumns: readonly string[];
  /** The event (docs/events.md) of one returned row. */
  event: (row: Row) => DomainEvent;
  /** true: a repeat while active takes the repeat's severity; false: the first severity stays. */
  raiseUpdatesSeverity: boolean;
  /** Besides state and cleared_at, a clear writes `detail` (the clear's, else the one kept) or `lastAt` (now). */
  clearUpdates: 'detail' | 'lastAt';
}

/** A clear of the active alert of a key; `detail` null keeps the alert's (where the kind writes it). */
export type AlertClear<Key> = Key & { detail: string | null };
/** A raise of an alert of a key in a data centre. */
export type AlertRaise<Key> = AlertClear<Key> & { tenantId: number; severity: string };
/** A raise or a clear, as devices report them. */
export type AlertChange<Key> = AlertRaise<Key> & { cleared: boolean };

/** The key of `change` as text, e.g. `12:lowBattery` (lock 12). */
export function alertKey<Key>(kind: AlertKindDescriptor<Key, never>, change: Key): string {
  return kind.keys.map((key) => key.of(change)).join(':');
}

/** Splits `changes` into rounds in which each key appears at most once, keeping their order. */
function alertRounds<Key, Change extends Key>(kind: AlertKindDescriptor<Key, never>, changes: readonly Change[]): Change[][] {
  const seen = new Map<string, number>();
  const rounds: Change[][] = [];
  for (const change of changes) {
    const key = alertKey(kind, change);
    const round = seen.get(key) ?? 0;
    seen.set(key, round + 1);
    const list = rounds[round] ?? [];
    list.push(change);
    rounds[round] = list;
  }
  return rounds;
}

const list = (parts: readonly SQLChunk[]) => sql.join([...parts], sql`, `);
const array = (values: readonly unknown[], arrayType: AlertKeyColumn<never>['arrayType']) => sql`${sql.param(values)}::${sql.raw(arrayType)}`;
const keyColumns = (kind: AlertKindDescriptor<never, never>) => list(kind.keys.map((key) => sql.identifier(key.column)));
const keyArrays = <Key>(kind: AlertKindDescriptor<Key, never>, changes: readonly Key[]) =>
  kind.keys.map((key) => array(changes.map(key.of), key.arrayType));
const columns = (names: readonly string[], prefix = sql``) => list(names.map((name) => sql`${prefix}${sql.identifier(name)}`));

/** Emits the kind's event for each row of `result` and returns the rows. */
async function emitted<Row, Returned extends Row>(tx: Tx, kind: AlertKindDescriptor<never, Row>, result: unknown): Promise<Returned[]> {
  const rows = rowsOf<Returned>(result);
  await emitAll(tx, rows.map(kind.event));
  return rows;
}

/**
 * Raises `raises` (each key at most once) and emits an event per alert; returns the rows, `raised`
 * true where the alert is new (false: an occurrence of an active one).
 */
export async function raiseAlerts<Key, Row>(tx: Tx, kind: AlertKindDescriptor<Key, Row>, raises: readonly AlertRaise<Key>[]): Promise<(Row & { raised: boolean })[]> {
  if (raises.length === 0) return [];
  const severity = kind.raiseUpdatesSeverity ? sql`, severity = excluded.severity` : sql``;
  return emitted<Row, Row & { raised: boolean }>(tx, kind, await tx.execute(sql`
    insert into alerts (device_kind, tenant_id, ${keyColumns(kind)}, severity, detail)
    select ${kind.deviceKind}::text, v.* from unnest(${list([array(raises.map((r) => r.tenantId), 'int[]'), ...keyArrays(kind, raises),
      array(raises.map((r) => r.severity), 'text[]'), array(raises.map((r) => r.detail), 'text[]')])}) as v
    on conflict (${keyColumns(kind)}) where state = 'active' do update set
      occurrences = alerts.occurrences + 1, last_at = now(), detail = coalesce(excluded.detail, alerts.detail)${severity}
    returning ${columns(kind.eventColumns)}, (xmax::text = '0') as raised`));
}

/** Clears the active alerts of `clears` (each key at most once) and emits an event per alert cleared; returns their rows. */
export async function clearAlerts<Key, Row>(tx: Tx, kind: AlertKindDescriptor<Key, Row>, clears: readonly AlertClear<Key>[]): Promise<Row[]> {
  if (clears.length === 0) return [];
  const also = kind.clearUpdates === 'detail' ? sql`detail = coalesce(v.detail, a.detail)` : sql`last_at = now()`;
  const matches = kind.keys.map((key) => sql`a.${sql.identifier(key.column)} = v.${sql.identifier(key.column)}`);
  return emitted<Row, Row>(tx, kind, await tx.execute(sql`
    update alerts a set state = 'cleared', cleared_at = now(), ${also}
    from unnest(${list([...keyArrays(kind, clears), array(clears.map((c) => c.detail), 'text[]')])}) as v(${keyColumns(kind)}, detail)
    where a.device_kind = ${kind.deviceKind} and ${sql.join(matches, sql` and `)} and a.state = 'active'
    returning ${columns(kind.eventColumns, sql`a.`)}`));
}

/** Applies raises and clears in the order given, round by round (see the module comment). */
export async function applyAlertChanges<Key, Row>(tx: Tx, kind: AlertKindDescriptor<Key, Row>, changes: readonly AlertChange<Key>[]): Promise<void> {
  for (const round of alertRounds(kind, changes)) {
    await raiseAlerts(tx, kind, round.filter((change) => !change.cleared));
    await clearAlerts(tx, kind, round.filter((change) => change.cleared));
  }
}

/** An acknowledged alert: the kind's event columns with its severity and detail. */
export type AcknowledgedRow<Row> = Row & { severity: string; detail: string | null };

/**
 * Acknowledges the kind's unacknowledged alerts among `ids` (alert ids) as `username` now, with `note`
 * (empty: none); returns those that changed. Row-level security limits it to the caller's data centre.
 */
export async function acknowledgeAlerts<Row>(tx: Tx, kind: AlertKindDescriptor<never, Row>, ids: readonly number[], username: string, note?: string): Promise<AcknowledgedRow<Row>[]> {
  return rowsOf<AcknowledgedRow<Row>>(await tx.execute(sql`
    update alerts set acknowledged_by = ${username}, acknowledged_at = now(), acknowledge_note = ${note || null}
    where id = any(${sql.param([...ids])}::bigint[]) and device_kind = ${kind.deviceKind} and acknowledged_at is null
    returning ${columns([...new Set([...kind.eventColumns, 'severity', 'detail'])])}`));
}
