/**
 * Shared pieces of the cluster tests (several server instances on one PostgreSQL): a fresh database
 * per test, and a small JSON client of the HTTP API.
 */
import { TENANT_HEADER, TOKEN_HEADER } from '@iot/contract';
import pg from 'pg';

/** A fresh database on the throw-away cluster at `postgresUrl`; returns its URL. */
export async function createDatabase(postgresUrl: string, prefix = 'iot_cluster'): Promise<string> {
  const name = `${prefix}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One answer of the API: HTTP status, the envelope's data, and the instance that answered (balancer header). */
export interface ApiAnswer<T> { status: number; data: T; servedBy: string | null }

/** Calls `path` on `base` as `token` in data centre 100 (or `tenantId`); a `body` is sent as JSON. GET unless `method` or a body says otherwise. */
export async function api<T = unknown>(base: string, token: string, path: string, options: { method?: string; body?: unknown; tenantId?: number } = {}): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { [TOKEN_HEADER]: token, [TENANT_HEADER]: String(options.tenantId ?? 100) };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const response = await fetch(`${base}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await response.text();
  let data: T = undefined as T;
  try {
    data = (JSON.parse(text) as { data: T }).data;
  } catch {
    /* not JSON: status alone */
  }
  return { status: response.status, data, servedBy: response.headers.get('x-served-by') };
}
