/**
 * The people of the demo's week (deterministic): lock users with passwords, temporary passwords, cards
 * and fingerprints on a dozen locks, added by the administrator through commands the locks answered,
 * in several sync states (normal, add failed, modify failed, delete failed; some users frozen); the
 * other commands an operator sends (configuration, clock sync); and the system log of it all with daily
 * sign-ins. Pure: returns the plan for fleet.ts and, once the commands have ids, the rows to write.
 */
import type { AuditEntry } from '../../modules/auditLog/repo.js';
import type { PastCredential, PastLockUser, PastOperation } from '../../modules/credential/history.js';
import { randomInt, seededRandom } from '@iot/simulator';
import { HOUR, type HistoryLock, localHour, MINUTE, type PlannedCommand } from './fleet.js';

const NAMES = ['张伟', '王芳', '李娜', '刘洋', '陈静', '杨磊', '赵敏', '黄强', '周婷', '吴昊', '徐丽', '孙鹏', '马超', '朱琳', '胡军', '郭颖', '林峰', '何雪', '高翔', '罗欣'];
const ACTIONS: Record<string, string> = {
  userOperation: 'POST /iot/v1/zg/userOperation', foreverPassword: 'POST /iot/v1/zg/foreverPassword', tempPassword: 'POST /iot/v1/zg/tempPassword',
  cardOperate: 'POST /iot/v1/zg/cardOperate', addFingerPrint: 'POST /iot/v1/zg/addFingerPrint', configPush: 'POST /iot/v1/lockConfig',
  clockSync: 'POST /iot/v1/lockDevice/clockSync',
};

type Audited = Omit<AuditEntry, 'accountId'> & { createdAt: number };
/** Rows whose last command is known by its index in the fleet's commands until it has an id. */
type Pending<T> = Omit<T, 'lastCommandId' | 'commandId'> & { command: number };

export interface PeoplePlan {
  plans: Map<number, PlannedCommand[]>;
  users: Pending<PastLockUser>[];
  credentials: Pending<PastCredential>[];
  operations: Pending<PastOperation>[];
  audit: Audited[];
}

/** Plans the week from `start` (ms, on the hour) to `end`; credentials on the first 10 locks of data centre 100 and 3 of 101. */
export function planPeople(locks: readonly HistoryLock[], start: number, end: number): PeoplePlan {
  const random = seededRandom(0xc0ffee);
  const out: PeoplePlan = { plans: new Map(), users: [], credentials: [], operations: [], audit: [] };
  const hours = Math.floor((end - start) / HOUR);
  /** An office hour (09-17 Beijing) in the first `share` of the week, as an hour index of the lock's history. */
  const officeHour = (share: number) => {
    for (;;) {
      const hour = randomInt(random, 0, Math.max(0, Math.floor(hours * share) - 1));
      if (localHour(start + hour * HOUR) >= 9 && localHour(start + hour * HOUR) <= 17) return hour;
    }
  };
  const plan = (lock: HistoryLock, command: PlannedCommand) => {
    const list = out.plans.get(lock.id) ?? [];
    command.hour = Math.min(command.hour, hours - 1);
    list.push(command);
    out.plans.set(lock.id, list);
    const created = command.created;
    command.created = (index, at) => {
      created?.(index, at);
      const action = ACTIONS[command.type];
      if (action && command.createdBy === 'admin') {
        out.audit.push({ tenantId: lock.tenantId, username: 'admin', action, target: String(lock.id), targetName: lock.name || lock.imei, result: 'success', clientIp: '10.20.1.15', detail: { lockId: lock.id, ...(typeof command.data.action === 'string' ? { action: command.data.action } : {}) }, createdAt: at - 400 });
      }
    };
  };
  const withCredentials = [...locks.filter((lock) => lock.tenantId === 100).slice(0, 10), ...locks.filter((lock) => lock.tenantId === 101).slice(0, 3)];
  let person = 0;
  let credentialCount = 0;
  for (const lock of withCredentials) {
    const slots = { passwords: 0, cards: 0, fingerprints: 0 };
    const people = randomInt(random, 2, 4);
    for (let userSlot = 0; userSlot < people; userSlot++, person++) {
      const name = NAMES[person % NAMES.length] as string;
      const hour = officeHour(0.6);
      const user: Pending<PastLockUser> = { tenantId: lock.tenantId, lockId: lock.id, userSlot, name, phone: `1380013${String(person).padStart(4, '0')}`, status: 'normal', syncState: 'normal', pendingAction: 'add', command: -1, createdBy: 'admin', createdAt: 0 };
      const userIndex = out.users.push(user) - 1;
      const userOp = (action: string, state: PlannedCommand['state'], at: number, done: () => void) => plan(lock, {
        hour: at, minute: 2, type: 'userOperation', data: { action, userSlot, name }, state, createdBy: 'admin', resultCode: state === 'SUCCESSFUL' ? 0 : undefined, resultDetail: state === 'SUCCESSFUL' ? `user ${action === 'add' ? 'added' : action === 'freeze' ? 'frozen' : 'modified'}` : undefined,
        created: (index, createdAt) => {
          user.command = index;
          if (action === 'add') user.createdAt = createdAt;
          out.operations.push({ tenantId: lock.tenantId, lockId: lock.id, subject: 'user', action: action as PastOperation['action'], row: userIndex, holderName: name, operator: 'admin', command: index, createdAt });
          done();
        },
      });
      userOp('add', 'SUCCESSFUL', hour, () => undefined);
      if (person % 6 === 5) userOp('freeze', 'SUCCESSFUL', hour + 30, () => Object.assign(user, { status: 'frozen', pendingAction: 'freeze' }));
      else if (person % 7 === 3) userOp('modify', 'TIMEOUT', hour + 26, () => Object.assign(user, { syncState: 'modify_failed', pendingAction: 'modify' }));
      const kinds: PastCredential['kind'][] = ['password', ...(person % 4 === 2 ? ['tempPassword' as const] : []), ...(random() < 0.6 ? ['card' as const] : []), ...(random() < 0.45 ? ['fingerprint' as const] : [])];
      kinds.forEach((kind, k) => {
        const slotTable = kind === 'card' ? 'cards' : kind === 'fingerprint' ? 'fingerprints' : 'passwords';
        const slot = slots[slotTable]++;
        const failedAdd = credentialCount % 9 === 4;
        const failedDelete = !failedAdd && credentialCount % 10 === 7;
        credentialCount++;
        const credential: Pending<PastCredential> = {
          tenantId: lock.tenantId, lockId: lock.id, kind, slot: kind === 'fingerprint' && failedAdd ? null : slot, slotTable, user: userIndex,
          ...(kind === 'password' || kind === 'tempPassword' ? { password: String(randomInt(random, 100000, 999999)) } : {}),
          ...(kind === 'card' ? { cardNumber: (randomInt(random, 0x10000000, 0x7fffffff) >>> 0).toString(16).toUpperCase() } : {}),
          ...(kind === 'tempPassword' ? { validTo: end + 3 * 24 * HOUR } : {}),
          syncState: failedAdd ? 'add_failed' : 'normal', pendingAction: 'add', command: -1, createdBy: 'admin', createdAt: 0,
        };
        const index = out.credentials.push(credential) - 1;
        const subject = kind === 'card' ? 'card' : kind === 'fingerprint' ? 'fingerprint' : 'password';
        const type = kind === 'password' ? 'foreverPassword' : kind === 'tempPassword' ? 'tempPassword' : kind === 'card' ? 'cardOperate' : 'addFingerPrint';
        const send = (action: 'add' | 'delete', state: PlannedCommand['state'], at: number, minute: number) => plan(lock, {
          hour: at, minute, type, state, createdBy: 'admin',
          data: kind === 'card' ? { action, slot, userSlot, cardNumber: credential.cardNumber, reversed: false } : kind === 'fingerprint' ? { action, userSlot, ...(action === 'delete' ? { slot } : {}) }
            : { action, slot, userSlot, ...(action === 'add' ? { password: credential.password } : {}) },
          ...(state === 'SUCCESSFUL' ? { resultCode: 0, resultDetail: kind === 'fingerprint' ? 'fingerprint enrolled' : `${subject} added`, ...(kind === 'fingerprint' ? { resultSlot: slot } : {}) } : {}),
          ...(state === 'FAILED' ? { resultCode: kind === 'card' ? 5 : 3, resultDetail: kind === 'card' ? 'card table full' : `${slotTable} slot occupied` } : {}),
          created: (command, createdAt) => {
            credential.command = command;
            if (action === 'add') credential.createdAt = createdAt;
            else Object.assign(credential, { syncState: 'delete_failed', pendingAction: 'delete' });
            out.operations.push({ tenantId: lock.tenantId, lockId: lock.id, subject, action, kind, slot: credential.slot, row: index, holderName: name, operator: 'admin', command, createdAt });
          },
        });
        send('add', failedAdd ? (kind === 'fingerprint' ? 'TIMEOUT' : 'FAILED') : 'SUCCESSFUL', hour, 4 + k * 3);
        if (failedDelete) send('delete', 'TIMEOUT', hour + 40, 10);
      });
    }
  }
  planOperations(locks, officeHour, plan, random);
  out.audit.push(...signIns(start, end));
  return out;
}

/** One to three configuration pushes or clock syncs per lock over the week, mostly answered. */
function planOperations(locks: readonly HistoryLock[], officeHour: (share: number) => number, plan: (lock: HistoryLock, command: PlannedCommand) => void, random: () => number): void {
  /** Each state up to its cumulative share: 70 % answered, 10 % timed out, 6 % failed, 6 % expired, 8 % canceled. */
  const states: [PlannedCommand['state'], number][] = [['SUCCESSFUL', 0.7], ['TIMEOUT', 0.8], ['FAILED', 0.86], ['EXPIRED', 0.92], ['CANCELED', 1]];
  for (const lock of locks) {
    for (let n = randomInt(random, 1, 3); n > 0; n--) {
      const pick = random();
      const state = states.find(([, upTo]) => pick < upTo)?.[0] ?? 'SUCCESSFUL';
      const config = random() < 0.5;
      const hour = officeHour(state === 'EXPIRED' ? 0.5 : 1);
      plan(lock, {
        hour, minute: randomInt(random, 5, 50), createdBy: 'admin', state,
        type: config ? 'configPush' : 'clockSync', data: config ? { config: { volume: randomInt(random, 3, 9) * 10, autoLockS: randomInt(random, 3, 10) } } : {}, // clockSync: its time
        ...(state === 'SUCCESSFUL' ? { resultCode: 0, resultDetail: config ? 'config applied' : 'clock set' } : state === 'FAILED' ? { resultCode: 1, resultDetail: 'invalid data' } : {}),
      });
    }
  }
}

/** Each day: the administrator and the operator sign in in the morning and out in the evening; now and then a mistyped password. */
function signIns(start: number, end: number): Audited[] {
  const random = seededRandom(0x51d);
  const rows: Audited[] = [];
  const entry = (username: string, action: string, result: string, createdAt: number, clientIp: string) => {
    if (createdAt < end) rows.push({ tenantId: 100, username, action, result, clientIp, target: '', createdAt });
  };
  for (let day = start - (start % (24 * HOUR)) + HOUR; day < end; day += 24 * HOUR) { // 09:00 Beijing = 01:00 UTC
    entry('admin', 'sign-in', 'success', day + randomInt(random, 0, 40) * MINUTE, '10.20.1.15');
    if (random() < 0.3) entry('operator', 'sign-in', 'INVALID_CREDENTIALS', day + 29 * MINUTE, '10.20.3.41');
    entry('operator', 'sign-in', 'success', day + randomInt(random, 30, 70) * MINUTE, '10.20.3.41');
    entry('operator', 'sign-out', 'success', day + 9 * HOUR + randomInt(random, 0, 40) * MINUTE, '10.20.3.41');
    entry('admin', 'sign-out', 'success', day + 9 * HOUR + randomInt(random, 30, 90) * MINUTE, '10.20.1.15');
  }
  return rows.filter((row) => row.createdAt >= start);
}
