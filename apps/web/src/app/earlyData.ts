/**
 * A console page's first data, asked for at start-up (api/early.ts) when the page is opened signed in
 * with no query in its address (the view its own first request asks for): path -> the GET URLs of
 * its first calls, exactly as the client builds them (path and `?query`; app/earlyData.test.ts checks
 * them against the contract's endpoints). Plain strings: the contract's schemas of these pages stay in
 * their own chunks. A URL the page no longer asks for costs one unused request, never a wrong answer.
 */
import { startEarly } from '../api/early';

/** The first GETs of each page that has early data (the home page's figures, the lock list's rows). */
export const EARLY_DATA: Readonly<Record<string, readonly string[]>> = {
  '/homepage': ['/iot/v1/lockDevice/analysis?days=7&scope=tenant'],
  '/lockInfo': ['/iot/v1/lockDevice/list?current=1&size=10'],
};

/** Starts the early requests of `path` (a console path without /api) when `search` (location.search) is empty. */
export function startEarlyData(path: string, search: string): void {
  if (search) return;
  for (const url of EARLY_DATA[path] ?? []) startEarly(url);
}
