/**
 * Data directories for a test that a failed attempt must not leave to its retry (vitest runs a failed
 * integration test once more): each attempt takes a new empty folder, so a retry never finds the first
 * attempt's locks, customer codes or heartbeats (the push kill -9 test's retry failed on its own
 * customer code: 400).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface AttemptDirs {
  /** A new empty folder under the system's temp folder, named `<prefix>…`. */
  next(): string;
  /** Removes every folder handed out. */
  removeAll(): void;
}

export function attemptDirs(prefix: string): AttemptDirs {
  const dirs: string[] = [];
  return {
    next() {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    removeAll() {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
