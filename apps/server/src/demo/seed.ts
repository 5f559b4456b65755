/**
 * Demo data, seeded idempotently on every start: data centres 100 and 101,
 * the seed device types (ZG-NB100/200/300) of a data centre without any,
 * accounts `admin` (type 0, both tenants) and `operator` (type 1, tenant 100, a role granting
 * HOME_PAGE, LOOK_RULE, LOOK_INFO), `simLocks` simulated NB-IoT ZIGUANG locks (4 in 5 in tenant 100)
 * and `simOnlineLocks` simulated always-online 4G Cat.1 locks (ZG-4G300: they can be
 * unlocked remotely; IMEIs from simulatedOnlineImei(0), also 4 in 5 in tenant 100).
 * Returns the passwords it generated so the caller prints them once; they are never logged.
 */
import { randomBytes } from 'node:crypto';
import { ACCOUNT_TYPE_ADMIN, ACCOUNT_TYPE_OPERATOR, ALWAYS_ONLINE_LOCK_MODEL, type Authority, LOCK_VENDOR } from '@iot/contract';
import { and, count, eq, like, notLike } from 'drizzle-orm';
import type { Database, Tx } from '../db/client.js';
import { accountRoles, accountTenants, accounts, locks, roles, tenants } from '../db/schema.js';
import { hashDeviceSecret, newDeviceSecret } from '../crypto/device-secret.js';
import { registerDevices } from '../modules/device/registry.js';
import { ensureSeedLockType, seedDeviceTypes } from '../modules/deviceType/catalogue.js';
import { hashPassword, verifyPassword } from '../modules/oauth/passwords.js';

export interface SeedOptions {
  adminPassword?: string;
  operatorPassword?: string;
  simLocks: number;
  /** Simulated always-online (4G Cat.1) locks; default 0. */
  simOnlineLocks?: number;
}

export interface SeededCredential {
  username: string;
  password: string;
}

export const DEMO_TENANTS = [
  { id: 100, name: '华东数据中心 (100)' },
  { id: 101, name: '华南数据中心 (101)' },
];
export const OPERATOR_AUTHORITIES: Authority[] = ['HOME_PAGE', 'LOOK_RULE', 'LOOK_INFO'];
const MODELS = ['ZG-NB100', 'ZG-NB200', 'ZG-NB300'];
/** Canonical versions (contract version.ts): shown as V1.2.3 … */
const FIRMWARE = ['1.2.3', '1.3.0', '2.0.1'];

/** IMEI of the i-th simulated lock: 15 digits, TAC-like prefix 86123450. */
export const simulatedImei = (i: number) => `8612345${String(i).padStart(8, '0')}`;
/** First IMEI digits of the simulated always-online locks: a range of their own, after the NB-IoT locks'. */
const ONLINE_IMEI_PREFIX = '861234590';
/** IMEI of the i-th simulated always-online lock (861234590000000, ...). */
export const simulatedOnlineImei = (i: number) => `${ONLINE_IMEI_PREFIX}${String(i).padStart(6, '0')}`;
/** Whether `imei` is one of the simulated always-online locks' range. */
export const isSimulatedOnlineImei = (imei: string) => imei.startsWith(ONLINE_IMEI_PREFIX);

async function ensureAccount(tx: Tx, username: string, type: number, given: string | undefined, tenantIds: number[]) {
  const [existing] = await tx.select().from(accounts).where(eq(accounts.username, username));
  if (existing) {
    if (given && !(await verifyPassword(existing.passwordHash, given))) {
      await tx.update(accounts).set({ passwordHash: await hashPassword(given) }).where(eq(accounts.id, existing.id));
    }
    return { id: existing.id, generated: undefined };
  }
  const password = given ?? randomBytes(9).toString('base64url');
  const [row] = await tx.insert(accounts).values({ username, type, passwordHash: await hashPassword(password), homeTenantId: tenantIds[0] ?? 100 }).returning();
  if (!row) throw new Error(`could not create account ${username}`);
  await tx.insert(accountTenants).values(tenantIds.map((tenantId) => ({ accountId: row.id, tenantId }))).onConflictDoNothing();
  return { id: row.id, generated: given ? undefined : password };
}

/** Room of the i-th lock of a building: six rooms a floor, so every lock has its own room and name. */
function roomOf(i: number) {
  const level = Math.floor(i / 6) + 1;
  return { floor: `${level}层`, room: `${level}${String((i % 6) + 1).padStart(2, '0')}` };
}

async function ensureSimulatedLocks(tx: Tx, wanted: number) {
  const [row] = await tx.select({ n: count() }).from(locks).where(and(eq(locks.simulated, true), notLike(locks.imei, `${ONLINE_IMEI_PREFIX}%`)));
  const have = row?.n ?? 0;
  const values = [];
  for (let i = have; i < wanted; i++) {
    // Buildings A, B, C in turn.
    const building = `${'ABC'[i % 3]}栋`;
    const { floor, room } = roomOf(Math.floor(i / 3));
    values.push({
      tenantId: i % 5 === 4 ? 101 : 100, imei: simulatedImei(i), name: `${building}${room}门锁`, building, floor, room,
      model: MODELS[i % MODELS.length] as string, vendor: LOCK_VENDOR, firmwareVersion: FIRMWARE[i % FIRMWARE.length] as string,
      simulated: true,
    });
  }
  await insertLocks(tx, values);
}

/** The always-online 4G Cat.1 locks: building D栋, never asleep, so a remote unlock reaches them at once. */
async function ensureSimulatedOnlineLocks(tx: Tx, wanted: number) {
  const [row] = await tx.select({ n: count() }).from(locks).where(and(eq(locks.simulated, true), like(locks.imei, `${ONLINE_IMEI_PREFIX}%`)));
  const have = row?.n ?? 0;
  if (have >= wanted) return;
  const values = [];
  for (let i = have; i < wanted; i++) {
    const { floor, room } = roomOf(i);
    values.push({
      tenantId: i % 5 === 4 ? 101 : 100, imei: simulatedOnlineImei(i), name: `D栋${room}门锁`, building: 'D栋', floor, room,
      model: ALWAYS_ONLINE_LOCK_MODEL, vendor: LOCK_VENDOR, firmwareVersion: '1.0.0', alwaysOnline: true,
      simulated: true,
    });
  }
  await ensureSeedLockType(tx, [...new Set(values.map((value) => value.tenantId))], ALWAYS_ONLINE_LOCK_MODEL);
  await insertLocks(tx, values);
}

/** Inserts the locks (an IMEI already registered is skipped) and registers each new one with a secret nobody knows (the simulator issues its own at start). */
async function insertLocks(tx: Tx, values: (typeof locks.$inferInsert)[]) {
  for (let start = 0; start < values.length; start += 1000) {
    const rows = await tx.insert(locks).values(values.slice(start, start + 1000)).onConflictDoNothing()
      .returning({ id: locks.id, tenantId: locks.tenantId, imei: locks.imei });
    for (const tenantId of new Set(rows.map((row) => row.tenantId))) {
      await registerDevices(tx, tenantId, 'lock', rows.filter((row) => row.tenantId === tenantId)
        .map((row) => ({ id: row.id, clientId: row.imei, secretHash: hashDeviceSecret(newDeviceSecret()) })));
    }
  }
}

/** Seeds the demo data in one transaction; returns passwords generated in this call. */
export async function seedDemo(database: Database, options: SeedOptions): Promise<SeededCredential[]> {
  return database.transaction(async (tx) => {
    await tx.insert(tenants).values(DEMO_TENANTS).onConflictDoNothing();
    await seedDeviceTypes(tx);
    const admin = await ensureAccount(tx, 'admin', ACCOUNT_TYPE_ADMIN, options.adminPassword, [100, 101]);
    const operator = await ensureAccount(tx, 'operator', ACCOUNT_TYPE_OPERATOR, options.operatorPassword, [100]);
    let [role] = await tx.select().from(roles).where(and(eq(roles.tenantId, 100), eq(roles.name, '门锁查看员')));
    if (!role) {
      [role] = await tx.insert(roles).values({ tenantId: 100, name: '门锁查看员', description: '查看首页与门锁信息', authorities: OPERATOR_AUTHORITIES }).returning();
      if (role) await tx.insert(accountRoles).values({ accountId: operator.id, roleId: role.id, tenantId: 100 }).onConflictDoNothing();
    }
    await ensureSimulatedLocks(tx, options.simLocks);
    await ensureSimulatedOnlineLocks(tx, options.simOnlineLocks ?? 0);
    const created: SeededCredential[] = [];
    if (admin.generated) created.push({ username: 'admin', password: admin.generated });
    if (operator.generated) created.push({ username: 'operator', password: operator.generated });
    return created;
  });
}
