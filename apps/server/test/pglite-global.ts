/**
 * Vitest global setup of the api-pglite project: migrates one in-memory PGlite once and writes its data
 * directory (PGlite's `dumpDataDir` tarball, uncompressed, about 40 MB) to a temp file, provided as
 * `pgliteTemplate`. Each test file's database starts from that dump (helper.ts): about 1 s instead of
 * 3.5 s of initdb plus 1 s of migrations, in a suite of a hundred files run twice in CI (stop 41).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await migrateDatabase(database);
    const client = (database.system as unknown as { $client: { dumpDataDir(compression: 'none'): Promise<Blob> } }).$client;
    const dump = await client.dumpDataDir('none');
    const dir = mkdtempSync(join(tmpdir(), 'iot-pglite-'));
    const file = join(dir, 'migrated.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    project.provide('pgliteTemplate', file);
    return () => rmSync(dir, { recursive: true, force: true });
  } finally {
    await database.close();
  }
}
