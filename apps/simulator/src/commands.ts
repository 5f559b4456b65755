/**
 * The lock side of every downlink type (protocol.downlinkData): validates the message, applies it to
 * the LockState and says what to answer (a commandResult, plus a configReport after a config push).
 * Fingerprint enrolment answers after ENROL_DELAY_MS (the user places a finger several times).
 */
import { protocol } from '@iot/contract';
import type { LockState, TableName } from './lock-state.js';
import { remoteUnlock } from './remote-unlock.js';
import { type DataOf, holidaySchedule, weekDaySchedule, yearDaySchedule } from './schedules.js';

/** commandResult codes (the contract's protocol.RESULT_CODES; 0 success). */
export const RESULT = protocol.RESULT_CODES;

/** Enrolment time of a fingerprint, ms. */
export const ENROL_DELAY_MS = 1500;

/** Data of a commandResult uplink. */
export type CommandResultData = Extract<protocol.UplinkMessage, { type: 'commandResult' }>['data'];

/** What the lock answers to one downlink. */
export interface Answer {
  result: CommandResultData;
  /** Answer after this long, ms. */
  delayMs: number;
  /** Send a configReport with this config after the result. */
  configReport?: protocol.LockConfig;
  /** Send the lock's inventory after the result (queryInventory). */
  inventory?: boolean;
  /** Send this open record after the result (remoteUnlock, opened or refused). */
  openRecord?: protocol.OpenRecordData;
}

type Outcome = { code: number; detail?: string; slot?: number; delayMs?: number; configReport?: protocol.LockConfig; inventory?: boolean; openRecord?: protocol.OpenRecordData };
const ok = (detail = 'ok', slot?: number): Outcome => ({ code: RESULT.OK, detail, ...(slot === undefined ? {} : { slot }) });
const fail = (code: number, detail: string): Outcome => ({ code, detail });

/** Applies a parsed downlink to `state`; `now`: platform clock, ms. Never throws. */
export function applyDownlink(state: LockState, message: { msgId: string; type: string; data: unknown }, now: number = Date.now()): Answer {
  const outcome = apply(state, message.type, message.data, now);
  const { code, detail, slot, delayMs = 0, configReport, inventory, openRecord } = outcome;
  return {
    result: { commandMsgId: message.msgId, code, ...(detail ? { detail } : {}), ...(slot === undefined ? {} : { slot }) },
    delayMs,
    ...(configReport ? { configReport } : {}),
    ...(inventory ? { inventory } : {}),
    ...(openRecord ? { openRecord } : {}),
  };
}

function apply(state: LockState, type: string, raw: unknown, now: number): Outcome {
  const schema = protocol.downlinkData[type as protocol.DownlinkType];
  const parsed = schema?.safeParse(raw);
  if (!parsed?.success) return fail(RESULT.INVALID, schema ? 'invalid data' : `unsupported type ${type}`);
  // biome-ignore lint/suspicious/noExplicitAny: narrowed per case by `type`
  const data = parsed.data as any;
  switch (type as protocol.DownlinkType) {
    case 'registerDevice': return ok('registered');
    case 'deleteDevice':
      for (const table of ['users', 'passwords', 'cards', 'fingerprints'] as const) state[table].clear();
      return ok('unregistered; credentials cleared');
    case 'configPush': {
      state.config = { ...state.config, ...(data as { config: protocol.LockConfig }).config };
      return { ...ok('config applied'), configReport: state.config };
    }
    case 'clockSync':
      state.clockOffsetMs = (data as { time: number }).time - now;
      return ok('clock set');
    case 'userOperation': return userOperation(state, data);
    case 'foreverPassword': return password(state, data, false);
    case 'tempPassword': return password(state, data, true);
    case 'cardOperate': return card(state, data);
    case 'addFingerPrint': return fingerprint(state, data);
    case 'weekDaySchedule': return weekDaySchedule(state, data);
    case 'yearDaySchedule': return yearDaySchedule(state, data);
    case 'holidaySchedule': return holidaySchedule(state, data);
    case 'queryInventory': return { ...ok('inventory follows'), inventory: true };
    case 'credentialOwner': return credentialOwner(state, data);
    case 'remoteUnlock': {
      const { record, refused } = remoteUnlock(state, data, now);
      return { ...(refused ? fail(RESULT.ACCESS_REFUSED, 'operatingMode') : ok('unlocked')), openRecord: record };
    }
  }
}

function userOperation(state: LockState, data: DataOf<'userOperation'>): Outcome {
  const { action, userSlot } = data;
  if (!state.fits('users', userSlot)) return fail(RESULT.SLOT_OUT_OF_RANGE, 'user slot out of range');
  const user = state.users.get(userSlot);
  if (action === 'add') {
    if (user) return fail(RESULT.SLOT_OCCUPIED, 'user slot occupied');
    state.users.set(userSlot, {
      name: data.name, frozen: false, validFrom: data.validFrom, validTo: data.validTo, userType: data.userType ?? 'unrestrictedUser',
      credentialRule: data.credentialRule ?? 'single', expiringMinutes: data.expiringMinutes, weekDay: new Map(), yearDay: new Map(),
    });
    return ok('user added', userSlot);
  }
  if (!user) return fail(RESULT.USER_NOT_FOUND, 'no such user');
  if (action === 'modify') {
    Object.assign(user, {
      name: data.name ?? user.name, validFrom: data.validFrom ?? user.validFrom, validTo: data.validTo ?? user.validTo, userType: data.userType ?? user.userType,
      credentialRule: data.credentialRule ?? user.credentialRule, expiringMinutes: data.expiringMinutes ?? user.expiringMinutes,
    });
  }
  else if (action === 'freeze' || action === 'unfreeze') user.frozen = action === 'freeze';
  else {
    state.users.delete(userSlot);
    for (const table of ['passwords', 'cards', 'fingerprints'] as const) {
      for (const [slot, entry] of state[table] as Map<number, { userSlot?: number }>) if (entry.userSlot === userSlot) state[table].delete(slot);
    }
  }
  return ok(`user ${action}`, userSlot);
}

function password(state: LockState, data: DataOf<'tempPassword'> | DataOf<'foreverPassword'>, temporary: boolean): Outcome {
  const { action, slot, userSlot } = data;
  if (!state.fits('passwords', slot)) return fail(RESULT.SLOT_OUT_OF_RANGE, 'password slot out of range');
  if (action === 'delete') return state.passwords.delete(slot) ? ok('password deleted', slot) : fail(RESULT.NOT_FOUND, 'no password in slot');
  if (!data.password) return fail(RESULT.INVALID, 'password missing');
  if (state.passwords.has(slot)) return fail(RESULT.SLOT_OCCUPIED, 'password slot occupied');
  if (userSlot !== undefined && !state.users.has(userSlot)) return fail(RESULT.USER_NOT_FOUND, 'no such user');
  const extra = 'oneTime' in data ? { oneTime: data.oneTime, validFrom: data.validFrom, validTo: data.validTo } : { oneTime: false };
  state.passwords.set(slot, { digits: data.password, userSlot, temporary, ...extra });
  return ok('password added', slot);
}

/** Reverses the byte order of a hex card number ("A1B2C3D4" -> "D4C3B2A1"). */
export const reverseBytes = (hex: string) => (hex.match(/../g) ?? []).reverse().join('');

/** A credential the lock holds (e.g. added at the keypad) now belongs to a user (Matter SetCredential modify). */
function credentialOwner(state: LockState, data: DataOf<'credentialOwner'>): Outcome {
  const entry = (state[data.table] as Map<number, { userSlot?: number }>).get(data.slot);
  if (!entry) return fail(RESULT.NOT_FOUND, `no ${data.table} slot ${data.slot}`);
  if (!state.users.has(data.userSlot)) return fail(RESULT.USER_NOT_FOUND, 'no such user');
  entry.userSlot = data.userSlot;
  return ok('credential assigned', data.slot);
}

function card(state: LockState, data: DataOf<'cardOperate'>): Outcome {
  const cardNumber = data.cardNumber === undefined ? '' : (data.reversed ? reverseBytes(data.cardNumber) : data.cardNumber).toUpperCase();
  if (data.action === 'delete') {
    const slot = data.slot ?? [...state.cards].find(([, entry]) => entry.cardNumber === cardNumber)?.[0];
    return slot !== undefined && state.cards.delete(slot) ? ok('card deleted', slot) : fail(RESULT.NOT_FOUND, 'no such card');
  }
  if (!cardNumber) return fail(RESULT.INVALID, 'card number missing');
  const slot = data.slot ?? state.freeSlot('cards');
  if (slot === undefined) return fail(RESULT.TABLE_FULL, 'card table full');
  const refused = slotRefusal(state, 'cards', slot, data.userSlot);
  if (refused) return refused;
  state.cards.set(slot, { cardNumber, userSlot: data.userSlot });
  return ok('card added', slot);
}

function fingerprint(state: LockState, data: DataOf<'addFingerPrint'>): Outcome {
  if (data.action === 'delete') {
    return data.slot !== undefined && state.fingerprints.delete(data.slot) ? ok('fingerprint deleted', data.slot) : fail(RESULT.NOT_FOUND, 'no such fingerprint');
  }
  if (!state.users.has(data.userSlot)) return fail(RESULT.USER_NOT_FOUND, 'no such user');
  const slot = state.freeSlot('fingerprints');
  if (slot === undefined) return fail(RESULT.TABLE_FULL, 'fingerprint table full');
  state.fingerprints.set(slot, { userSlot: data.userSlot });
  return { ...ok('fingerprint enrolled', slot), delayMs: ENROL_DELAY_MS };
}

function slotRefusal(state: LockState, table: TableName, slot: number, userSlot: number | undefined): Outcome | undefined {
  if (!state.fits(table, slot)) return fail(RESULT.SLOT_OUT_OF_RANGE, `${table} slot out of range`);
  if ((state[table] as Map<number, unknown>).has(slot)) return fail(RESULT.SLOT_OCCUPIED, `${table} slot occupied`);
  if (userSlot !== undefined && !state.users.has(userSlot)) return fail(RESULT.USER_NOT_FOUND, 'no such user');
  return undefined;
}
