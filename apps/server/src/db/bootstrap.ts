/**
 * Production first start (DEMO=off): the platform needs one data centre and one administrator to be
 * usable at all. Both are created once, when missing, and never touched again:
 * - a data centre with the default id 100 when there is no data centre at all;
 * - the administrator `username` (type 0, every data centre) when no administrator exists and a
 *   password is given (ADMIN_PASSWORD). Without a password nothing is created and `missing` says so.
 * Nothing else: no demo accounts, roles or locks.
 */
import { ACCOUNT_TYPE_ADMIN, DEFAULT_TENANT_ID } from '@iot/contract';
import { count, eq } from 'drizzle-orm';
import { seedDeviceTypes } from '../modules/deviceType/catalogue.js';
import { hashPassword } from '../modules/oauth/passwords.js';
import type { Database } from './client.js';
import { accountTenants, accounts, tenants } from './schema.js';

export interface BootstrapResult {
  /** The administrator created by this call, if any. */
  createdAdministrator?: string;
  /** True when there is no administrator and none could be created (no password given). */
  missingAdministrator: boolean;
}

/** The first data centre's name when the platform creates it. */
export const FIRST_TENANT_NAME = '数据中心 100 / Data centre 100';

/** Creates the first data centre and administrator when missing, and the seed device types, in one transaction. */
export async function ensureFirstAdministrator(database: Database, options: { username: string; password?: string }): Promise<BootstrapResult> {
  return database.transaction(async (tx) => {
    const [tenantRow] = await tx.select({ n: count() }).from(tenants);
    if (!tenantRow?.n) await tx.insert(tenants).values({ id: DEFAULT_TENANT_ID, name: FIRST_TENANT_NAME }).onConflictDoNothing();
    await seedDeviceTypes(tx); // a data centre without any device type gets the ZIGUANG models
    const [adminRow] = await tx.select({ n: count() }).from(accounts).where(eq(accounts.type, ACCOUNT_TYPE_ADMIN));
    if (adminRow?.n) return { missingAdministrator: false };
    if (!options.password) return { missingAdministrator: true };
    const [home] = await tx.select({ id: tenants.id }).from(tenants).orderBy(tenants.id).limit(1);
    const homeTenantId = home?.id ?? DEFAULT_TENANT_ID;
    const [row] = await tx.insert(accounts).values({
      username: options.username, type: ACCOUNT_TYPE_ADMIN, passwordHash: await hashPassword(options.password), homeTenantId,
    }).returning({ id: accounts.id });
    if (!row) throw new Error(`could not create the administrator ${options.username}`);
    await tx.insert(accountTenants).values({ accountId: row.id, tenantId: homeTenantId }).onConflictDoNothing();
    return { createdAdministrator: options.username, missingAdministrator: false };
  });
}
