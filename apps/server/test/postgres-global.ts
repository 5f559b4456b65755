/**
 * Vitest global setup of the api-postgres project: starts a throw-away PostgreSQL cluster (Debian's
 * server binaries, trust auth on 127.0.0.1, a free port, data in a temp folder) and provides its URL
 * as `postgresUrl`. PostgreSQL refuses to run as root, so as root the cluster runs as user `postgres`.
 * TEST_POSTGRES_URL uses an existing server instead. Without server binaries the suite fails under
 * CI and is skipped (with a warning) elsewhere.
 * It also migrates one database once and provides its name as `postgresTemplate`: each API test file
 * copies it (`create database … template …`, helper.ts) instead of running every migration again.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import getPort from 'get-port';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresTemplate: string;
  }
}

function findBinDir(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(base, v, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
}

export default async function setup(project: TestProject) {
  if (process.env.TEST_POSTGRES_URL) {
    project.provide('postgresUrl', process.env.TEST_POSTGRES_URL);
    return migratedTemplate(project, process.env.TEST_POSTGRES_URL);
  }
  const bin = findBinDir();
  if (!bin) {
    if (process.env.CI) throw new Error('PostgreSQL server binaries not found (apt-get install postgresql)');
    console.warn('[api-postgres] PostgreSQL server binaries not found: PostgreSQL API tests are skipped');
    project.provide('postgresUrl', '');
    project.provide('postgresTemplate', '');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'iot-pg-'));
  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]] : [join(bin, cmd), args];
    const result = spawnSync(file as string, argv as string[], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${cmd} failed: ${result.stderr || result.stdout}`);
  };
  const port = await getPort({ host: '127.0.0.1' });
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=200`, 'start']);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  project.provide('postgresUrl', url);
  await migratedTemplate(project, url);
  return () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

/**
 * Creates and migrates a database to copy from, provides its name as `postgresTemplate`, and returns
 * its teardown (drops it). The template must have no connection open while it is copied: it is
 * closed before any test starts.
 */
async function migratedTemplate(project: TestProject, adminUrl: string): Promise<() => Promise<void>> {
  const name = `iot_template_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const database = await openDatabase({ databaseUrl: adminUrl.replace(/\/postgres$/, `/${name}`), dataDir: '' });
  try {
    await migrateDatabase(database);
  } finally {
    await database.close();
  }
  project.provide('postgresTemplate', name);
  return () => admin(`drop database if exists ${name}`);
}
