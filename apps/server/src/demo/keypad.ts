/**
 * DEMO / TEST FACILITY: `POST /iot/v1/simulator/attemptOpen` lets the console or a test
 * "type a password on the keypad" of a lock of the simulated fleet running in this process
 * (SIM_LOCKS > 0, attached by demo/index.ts; tests attach their own fleet). The route is registered only with
 * DEMO=on, and answers 404 when no fleet is attached or the lock is not simulated.
 * The lock decides with what it really holds and reports an openRecord uplink like any attempt.
 */
import type { attemptOpenBody, CredentialRule, UserType } from '@iot/contract';
import type { AttemptInput, AttemptResult, LockTables } from '@iot/simulator';
import { and, eq, inArray, isNotNull, notInArray, type SQLWrapper } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Database } from '../db/client.js';
import { credentials, locks, lockUsers } from '../db/schema.js';
import type { z } from 'zod';
import { ApiError, fieldError } from '../http/api-error.js';
import { heldSchedulesOfLocks } from '../modules/accessSchedule/repo.js';
import { heldHolidaysOfLocks } from '../modules/holidayCalendar/repo.js';

/** What the route needs of a fleet (apps/simulator Fleet.attemptOpen). */
export interface OpenableFleet {
  attemptOpen(imei: string, input: AttemptInput): AttemptResult | undefined;
  /** A code added at the keypad; the slot, null when refused, undefined for a lock not simulated. */
  keypadAdd(imei: string, password: string): { slot: number } | null | undefined;
}

/** By database handle: route plugins run in encapsulated child instances of the app, which share it. */
const fleets = new WeakMap<object, OpenableFleet>();

/** Attaches (or with undefined detaches) the in-process simulated fleet of `app`. */
export function attachSimulator(app: FastifyInstance, fleet: OpenableFleet | undefined): void {
  if (fleet) fleets.set(app.database, fleet);
  else fleets.delete(app.database);
}

/** The attempt's input from the request body; 400 when the method's field is missing. */
function inputOf(body: z.output<typeof attemptOpenBody>): AttemptInput {
  const clock = body.at === undefined ? {} : { at: Date.parse(body.at) };
  if (body.method === 'password') {
    if (!body.password) throw fieldError('body.password', '请输入密码', 'password is required');
    return { method: 'password', password: body.password, ...clock };
  }
  if (body.method === 'card') {
    if (!body.cardNumber) throw fieldError('body.cardNumber', '请输入卡号', 'cardNumber is required');
    return { method: 'card', cardNumber: body.cardNumber, ...clock };
  }
  if (body.fingerprintSlot === undefined) throw fieldError('body.fingerprintSlot', '请指定指纹槽位', 'fingerprintSlot is required');
  return { method: 'fingerprint', fingerprintSlot: body.fingerprintSlot, ...clock };
}

/** Adds a code at the simulated lock's keypad; 404 when not simulated, 409 when the lock refuses it (full, or the digits held). */
export function keypadAddOnSimulator(app: FastifyInstance, imei: string, password: string): { slot: number } {
  const result = fleets.get(app.database)?.keypadAdd(imei, password);
  if (result === undefined) throw new ApiError('NOT_FOUND');
  if (result === null) throw new ApiError('CONFLICT', [{ field: 'body.password', message: { 'zh-CN': '门锁拒绝：密码已存在或已满', 'en-US': 'The lock refused: the code exists or the table is full' } }]);
  return result;
}

/** Runs the attempt on the simulated lock `imei` (already found in the tenant); 404 when not simulated. */
export function attemptOnSimulator(app: FastifyInstance, imei: string, body: z.output<typeof attemptOpenBody>): AttemptResult {
  const input = inputOf(body);
  const result = fleets.get(app.database)?.attemptOpen(imei, input);
  if (!result) throw new ApiError('NOT_FOUND');
  return result;
}

/**
 * What the platform last confirmed on each lock of `imeis` (all tenants), as the simulated locks' own
 * tables at start (the demo's lock users exist on their simulated locks, so adding a
 * password for one succeeds): lock users (with their Matter user type and, their week-day
 * and year-day schedules), credentials and the lock's holiday schedules, each in any sync state but
 * adding / add_failed (a pending or failed change or delete is still on the lock), password digits
 * unsealed with `box`, card numbers in the byte order the lock reads. A restarted simulated lock so
 * keeps enforcing what it held, as a real lock does. Locks without rows are absent.
 */
export async function lockTablesByImei(database: Database, imeis: readonly string[], box: SecretBox): Promise<Map<string, LockTables>> {
  const out = new Map<string, LockTables>();
  if (imeis.length === 0) return out;
  const tablesOf = (imei: string) => {
    const tables = out.get(imei) ?? { users: [], passwords: [], cards: [], fingerprints: [], holidays: [] };
    out.set(imei, tables);
    return tables;
  };
  const onLock = (state: SQLWrapper) => notInArray(state, ['adding', 'add_failed']);
  const ms = (value: Date | null) => value?.getTime() ?? undefined;
  const users = await database.system.select({ imei: locks.imei, slot: lockUsers.userSlot, name: lockUsers.name, status: lockUsers.status, validFrom: lockUsers.validFrom, validTo: lockUsers.validTo,
    userType: lockUsers.userType, credentialRule: lockUsers.credentialRule, expiringMinutes: lockUsers.expiringMinutes })
    .from(lockUsers).innerJoin(locks, eq(locks.id, lockUsers.lockId)).where(and(inArray(locks.imei, [...imeis]), onLock(lockUsers.syncState)));
  for (const user of users) {
    tablesOf(user.imei).users.push([user.slot, {
      name: user.name, frozen: user.status === 'frozen', validFrom: ms(user.validFrom), validTo: ms(user.validTo),
      userType: user.userType as UserType, credentialRule: user.credentialRule as CredentialRule, expiringMinutes: user.expiringMinutes ?? undefined,
      weekDay: new Map(), yearDay: new Map(),
    }]);
  }
  // The lock keeps its users' schedules and its holiday schedules across a restart too.
  const usersOf = new Map([...out].map(([imei, tables]) => [imei, new Map(tables.users)]));
  for (const held of await heldSchedulesOfLocks(database.system, imeis)) {
    const user = usersOf.get(held.imei)?.get(held.userSlot);
    if (held.value.kind === 'weekDay') user?.weekDay.set(held.index, { daysMask: held.value.daysMask, startMinute: held.value.startMinute, endMinute: held.value.endMinute });
    else user?.yearDay.set(held.index, { start: held.value.start, end: held.value.end });
  }
  for (const held of await heldHolidaysOfLocks(database.system, imeis)) tablesOf(held.imei).holidays.push([held.index, held.rule]);
  const rows = await database.system.select({
    imei: locks.imei, kind: credentials.kind, slot: credentials.slot, userSlot: credentials.userSlot, validFrom: credentials.validFrom, validTo: credentials.validTo,
    oneTime: credentials.oneTime, cardNumber: credentials.cardNumber, reversed: credentials.reversed, secretEnc: credentials.secretEnc,
  }).from(credentials).innerJoin(locks, eq(locks.id, credentials.lockId))
    .where(and(inArray(locks.imei, [...imeis]), onLock(credentials.syncState), isNotNull(credentials.slot)));
  for (const row of rows) {
    const tables = tablesOf(row.imei);
    const slot = row.slot as number;
    const userSlot = row.userSlot ?? undefined;
    if ((row.kind === 'password' || row.kind === 'tempPassword') && row.secretEnc) {
      tables.passwords.push([slot, { digits: box.open(row.secretEnc), userSlot, temporary: row.kind === 'tempPassword', oneTime: row.oneTime, validFrom: ms(row.validFrom), validTo: ms(row.validTo) }]);
    } else if (row.kind === 'card' && row.cardNumber) {
      tables.cards.push([slot, { cardNumber: (row.reversed ? reverseBytes(row.cardNumber) : row.cardNumber).toUpperCase(), userSlot }]);
    } else if (row.kind === 'fingerprint' && userSlot !== undefined) {
      tables.fingerprints.push([slot, { userSlot }]);
    }
  }
  return out;
}

/** Reverses the byte order of a hex card number (as the lock does for a card sent reversed). */
const reverseBytes = (hex: string) => (hex.match(/../g) ?? []).reverse().join('');
