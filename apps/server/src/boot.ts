/**
 * What a server process does to its database before it builds the app (main.ts): migrate, then
 * - DEMO=on: seed the demo (data centres, accounts, simulated locks and air switches; demo/index.ts,
 *   imported only then) and, on a first start, a week of history;
 * - DEMO=off: create the first data centre and administrator when missing (ADMIN_USERNAME/ADMIN_PASSWORD).
 * Returns what main.ts prints once.
 */
import type { Config } from './config.js';
import { type BootstrapResult, ensureFirstAdministrator } from './db/bootstrap.js';
import type { Database } from './db/client.js';
import { migrateDatabase } from './db/migrate.js';
import type { SeededCredential } from './demo/seed.js';

export interface Prepared {
  /** Demo passwords generated now (shown once). */
  created: SeededCredential[];
  /** Rows of demo history seeded and the time it took, ms. */
  history?: { rows: number; ms: number };
  /** DEMO=off: what the first-administrator check did. */
  bootstrap?: BootstrapResult;
}

/** Migrates and seeds `database` for `config` (see the module comment). */
export async function prepareDatabase(database: Database, config: Config): Promise<Prepared> {
  await migrateDatabase(database);
  if (!config.DEMO) {
    return { created: [], bootstrap: await ensureFirstAdministrator(database, { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD }) };
  }
  const demo = await import('./demo/index.js');
  const created = await demo.seedDemoData(database, config);
  return { created, history: await demo.seedDemoWeek(database, config) };
}
