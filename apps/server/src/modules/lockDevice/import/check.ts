/**
 * The dry run of a lock import: every row checked as a registration would be (contract
 * lockAddBody: Luhn IMEI, lengths, ICCID), plus a duplicate IMEI within the file, an IMEI already
 * registered in any data centre (said without naming it) and a device type the data centre lacks.
 * Returns every problem (row, column, reason in both languages) and the valid rows as registrations.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { FIELD_MESSAGES, type ImportColumn, type ImportProblem, type LocalizedText, lockAddBody, localized as h } from '@iot/contract';
import { and, inArray, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor, Tx } from '../../../db/client.js';
import { locks } from '../../../db/schema.js';
import { deviceTypeOptions } from '../../deviceType/catalogue.js';
import type { ImportRow } from './read.js';

export type ImportLock = z.output<typeof lockAddBody>;

/** Rows checked between two turns of the event loop. */
const YIELD_EVERY = 500;
const YES = new Set(['是', 'yes', 'y', 'true', '1']);
const NO = new Set(['', '否', 'no', 'n', 'false', '0']);

/** A zod issue of a row as a reason in both languages. */
function reasonOf(issue: z.core.$ZodIssue): LocalizedText {
  const known = FIELD_MESSAGES[issue.message];
  if (known) return known;
  if (issue.code === 'too_small') return h('必填', 'is required');
  if (issue.code === 'too_big') return h(`过长（最多 ${String(issue.maximum)} 个字符）`, `is too long (at most ${String(issue.maximum)} characters)`);
  if (issue.code === 'invalid_format') return h('格式不正确（ICCID 须为 19 或 20 位数字）', 'has the wrong format (an ICCID is 19 or 20 digits)');
  return h('无效', 'is invalid');
}

export interface ImportCheckResult {
  rows: number;
  problems: ImportProblem[];
  valid: ImportLock[];
}

/**
 * Of `imeis`, those registered (IMEI not released) in any data centre. Runs on the owner connection
 * (`system`, outside any tenant transaction): uniqueness is global, and only "taken" is ever said.
 */
export async function takenImeis(system: Executor, imeis: readonly string[]): Promise<Set<string>> {
  const wanted = [...new Set(imeis.filter((imei) => /^\d{15}$/.test(imei)))];
  const taken = new Set<string>();
  for (let start = 0; start < wanted.length; start += 1000) {
    const found = await system.select({ imei: locks.imei }).from(locks)
      .where(and(inArray(locks.imei, wanted.slice(start, start + 1000)), isNull(locks.imeiReleasedAt)));
    for (const { imei } of found) taken.add(imei);
  }
  return taken;
}

/** Checks `rows` in the caller's tenant transaction `tx`; `taken`: the IMEIs registered anywhere (takenImeis). */
export async function checkImport(tx: Tx, rows: readonly ImportRow[], taken: ReadonlySet<string>): Promise<ImportCheckResult> {
  const models = new Set((await deviceTypeOptions(tx)).map((type) => type.model));
  const problems: ImportProblem[] = [];
  const add = (row: number, column: ImportColumn, reason: LocalizedText) => problems.push({ row, column, reason });
  const firstRow = new Map<string, number>();
  const candidates: { row: number; lock: ImportLock }[] = [];
  for (const [index, { row, cells }] of rows.entries()) {
    // 10,000 rows of checks take tens of ms: other requests get their turn every YIELD_EVERY rows.
    if (index % YIELD_EVERY === YIELD_EVERY - 1) await nextTurn();
    const before = problems.length;
    const simulated = cells.simulated.toLowerCase();
    if (!YES.has(simulated) && !NO.has(simulated)) add(row, 'simulated', h('须为“是”或“否”', 'must be yes or no'));
    const parsed = lockAddBody.safeParse({ ...cells, simulated: YES.has(simulated) });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) add(row, (issue.path[0] as ImportColumn | undefined) ?? 'imei', reasonOf(issue));
    }
    if (cells.model && !models.has(cells.model)) add(row, 'model', h(`设备类型 ${cells.model} 不存在`, `there is no device type ${cells.model}`));
    const seen = firstRow.get(cells.imei);
    if (cells.imei && seen !== undefined) add(row, 'imei', h(`与第 ${seen} 行的 IMEI 重复`, `repeats the IMEI of row ${seen}`));
    else if (cells.imei) firstRow.set(cells.imei, row);
    if (problems.length === before && parsed.success) candidates.push({ row, lock: parsed.data });
  }
  const valid: ImportLock[] = [];
  for (const { row, lock } of candidates) {
    if (taken.has(lock.imei)) add(row, 'imei', h('该 IMEI 已登记，不能重复登记', 'this IMEI is already registered'));
    else valid.push(lock);
  }
  problems.sort((a, b) => a.row - b.row);
  return { rows: rows.length, problems, valid };
}
