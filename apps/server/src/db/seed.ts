/**
 * Demo data, seeded idempotently on every start (issue #2 "Demo data"): data centres 100 and 101,
 * the seed device types (ZG-NB100/200/300) of a data centre without any,
 * accounts `admin` (type 0, both tenants) and `operator` (type 1, tenant 100, a role granting
 * HOME_PAGE, LOOK_RULE, LOOK_INFO), and `simLocks` simulated ZIGUANG locks (4 in 5 in tenant 100).
 * Returns the passwords it generated so the caller prints them once; they are never logged.
 */
import { randomBytes } from 'node:crypto';
import { ACCOUNT_TYPE_ADMIN, ACCOUNT_TYPE_OPERATOR, type Authority, LOCK_VENDOR } from '@iot/contract';
import { and, count, eq } from 'drizzle-orm';
import type { Database, Tx } from './client.js';
import { accountRoles, accountTenants, accounts, locks, roles, tenants } from './schema.js';
import { hashDeviceSecret, newDeviceSecret } from '../crypto/device-secret.js';
import { seedDeviceTypes } from '../modules/deviceType/service.js';
import { hashPassword, verifyPassword } from '../modules/oauth/passwords.js';

export interface SeedOptions {
  adminPassword?: string;
  operatorPassword?: string;
  simLocks: number;
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

async function ensureSimulatedLocks(tx: Tx, wanted: number) {
  const [row] = await tx.select({ n: count() }).from(locks).where(eq(locks.simulated, true));
  const have = row?.n ?? 0;
  const values = [];
  for (let i = have; i < wanted; i++) {
    // Buildings A, B, C in turn; six rooms a floor: every lock gets its own room, so names never repeat.
    const building = `${'ABC'[i % 3]}栋`;
    const inBuilding = Math.floor(i / 3);
    const level = Math.floor(inBuilding / 6) + 1;
    const floor = `${level}层`;
    const room = `${level}${String((inBuilding % 6) + 1).padStart(2, '0')}`;
    values.push({
      tenantId: i % 5 === 4 ? 101 : 100, imei: simulatedImei(i), name: `${building}${room}门锁`, building, floor, room,
      model: MODELS[i % MODELS.length] as string, vendor: LOCK_VENDOR, firmwareVersion: FIRMWARE[i % FIRMWARE.length] as string,
      deviceSecretHash: hashDeviceSecret(newDeviceSecret()), simulated: true,
    });
  }
  for (let start = 0; start < values.length; start += 1000) {
    await tx.insert(locks).values(values.slice(start, start + 1000)).onConflictDoNothing();
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
    const created: SeededCredential[] = [];
    if (admin.generated) created.push({ username: 'admin', password: admin.generated });
    if (operator.generated) created.push({ username: 'operator', password: operator.generated });
    return created;
  });
}
