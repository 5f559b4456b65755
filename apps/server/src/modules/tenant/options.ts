/** The data centres (table `tenants`) as the header's selector lists them. */
import { asc } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { tenants } from '../../db/schema.js';

/** Every data centre as the header's selector lists it, `[{ label: name, value: id }]`, by id. */
export async function listTenantOptions(database: Database): Promise<{ label: string; value: number }[]> {
  const rows = await database.system.select().from(tenants).orderBy(asc(tenants.id));
  return rows.map((row) => ({ label: row.name, value: row.id }));
}
