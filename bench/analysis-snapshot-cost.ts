/**
 * What the analysis job's snapshots cost the database (bench/analysis.ts): one forced refresh of every
 * data centre's current part, and one of the lists, timed on a connection of our own. The job pays the
 * first every ANALYSIS_SNAPSHOT_MS (5 s) and the second every 12 of those.
 */
import { openDatabase } from '../apps/server/src/db/client.js';
import { refreshSnapshots } from '../apps/server/src/modules/analysis/snapshot.js';
import { protocol } from '@iot/contract';

/** "current part N ms, lists M ms" for the whole database at `databaseUrl`. */
export async function snapshotCost(databaseUrl: string): Promise<string> {
  const database = await openDatabase({ databaseUrl, dataDir: '' });
  try {
    const time = async (periods: { currentMs: number; listsMs: number }) => {
      const started = performance.now();
      await refreshSnapshots(database, protocol.WAKE_WINDOW_MS, periods);
      return (performance.now() - started).toFixed(0);
    };
    const current = await time({ currentMs: 0, listsMs: 86_400_000 });
    const lists = await time({ currentMs: 86_400_000, listsMs: 0 });
    return `current part ${current} ms, lists ${lists} ms (every data centre)`;
  } finally {
    await database.close();
  }
}
