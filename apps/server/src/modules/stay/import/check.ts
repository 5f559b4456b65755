/**
 * The booking import's dry run and commit (contract api/stayImport.ts): the file's stays
 * (parse.ts) checked in the caller's tenant transaction with the rules of booking one stay (rules.ts:
 * the room has locks, check-out in the future and at most STAY_MAX_DAYS, no overlap with an active stay)
 * plus a reference already used by a stay that is not cancelled (so a repeated file never books twice).
 * The commit books each stay with addStay in the same transaction, or throws 400 with every row problem.
 */
import { type FieldError, STAY_MAX_DAYS, type StayImportCheck, type StayImportColumn } from '@iot/contract';
import { and, inArray, ne } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { stays } from '../../../db/schema.js';
import { ApiError } from '../../../http/api-error.js';
import type { SheetRow } from '../../../http/sheet.js';
import type { Actor } from '../../credential/ops.js';
import { checkOverlap, checkTimes, roomLocks } from '../rules.js';
import { addStay } from '../lifecycle.js';
import { addError, type FileStay, parseBookings, type RowErrors } from './parse.js';

/** At most this many row problems in a refused commit's answer (the dry run lists them all). */
const MAX_COMMIT_ERRORS = 200;

/** A rule of rules.ts applied to a stay: its refusal becomes a problem of the stay's first row on `column`. */
async function rule(errors: RowErrors, stay: FileStay, column: StayImportColumn, check: () => Promise<unknown> | unknown): Promise<void> {
  try {
    await check();
  } catch (error) {
    const message = error instanceof ApiError ? error.errors?.[0]?.message : undefined;
    if (!message) throw error;
    addError(errors, stay.rows[0] as number, column, message);
  }
}

/**
 * The file's stays that pass every rule in `tx`, and every row's problems. `now`: ms, injectable for
 * tests; `serialise`: take each room's booking lock (the commit), or not (the dry run books nothing).
 */
async function checkStays(tx: Executor, rows: readonly SheetRow<StayImportColumn>[], timeZone: string, now: number, serialise: boolean) {
  const { stays: candidates, errors } = parseBookings(rows, timeZone);
  const references = candidates.flatMap((stay) => (stay.body.reference ? [stay.body.reference] : []));
  const taken = new Map<string, number>();
  for (let start = 0; start < references.length; start += 1000) {
    const found = await tx.select({ id: stays.id, reference: stays.reference }).from(stays)
      .where(and(inArray(stays.reference, references.slice(start, start + 1000)), ne(stays.state, 'CANCELLED')));
    for (const { id, reference } of found) taken.set(reference as string, id);
  }
  const valid: FileStay[] = [];
  for (const stay of candidates) {
    const first = stay.rows[0] as number;
    const before = errors.get(first)?.length ?? 0;
    const known = stay.body.reference ? taken.get(stay.body.reference) : undefined;
    if (known !== undefined) addError(errors, first, 'reference', { 'zh-CN': `该预订单号已登记（#${known}）`, 'en-US': `This reference is already booked (#${known})` });
    await rule(errors, stay, 'room', () => roomLocks(tx, stay.body.room));
    await rule(errors, stay, 'checkOutAt', () => checkTimes(stay.checkInAt, stay.checkOutAt, STAY_MAX_DAYS, now));
    await rule(errors, stay, 'checkInAt', () => checkOverlap(tx, stay.body.room, new Date(stay.checkInAt), new Date(stay.checkOutAt), undefined, serialise));
    if ((errors.get(first)?.length ?? 0) === before) valid.push(stay);
  }
  return { valid, errors };
}

/** The dry run of `rows` in `tx`: every row's result and the totals; writes nothing. */
export async function checkBookings(tx: Executor, rows: readonly SheetRow<StayImportColumn>[], timeZone: string, now = Date.now()): Promise<StayImportCheck> {
  const { valid, errors } = await checkStays(tx, rows, timeZone, now, false);
  const results = rows.map(({ row }) => ({ row, ok: !errors.has(row), errors: errors.get(row) ?? [] }));
  const invalid = results.filter((result) => !result.ok).length;
  return { rows: rows.length, valid: rows.length - invalid, invalid, stays: invalid === 0 ? valid.length : 0, results };
}

/**
 * Books every stay of `rows` in `tx` (the caller's tenant transaction, with the endpoint's system-log
 * row): all or nothing. 400 VALIDATION_FAILED when any row has a problem, each as field
 * `body.file.<row>.<column>` (the first MAX_COMMIT_ERRORS). Returns the new stays' ids in file order.
 */
export async function importBookings(tx: Executor, actor: Actor, rows: readonly SheetRow<StayImportColumn>[], timeZone: string, now = Date.now()) {
  const { valid, errors } = await checkStays(tx, rows, timeZone, now, true);
  if (errors.size > 0) {
    const fieldErrors: FieldError[] = [...errors.entries()].sort(([a], [b]) => a - b)
      .flatMap(([row, list]) => list.map((error) => ({ field: `body.file.${row}.${error.column}`, message: error.reason })));
    throw new ApiError('VALIDATION_FAILED', fieldErrors.slice(0, MAX_COMMIT_ERRORS));
  }
  const ids: number[] = [];
  for (const stay of valid) ids.push((await addStay(tx, actor, stay.body, now)).id);
  return { stays: ids.length, guests: valid.reduce((sum, stay) => sum + stay.body.guests.length, 0), ids };
}
