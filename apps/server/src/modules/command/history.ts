/**
 * Past commands for the demo's lived-in history (demo/history/; table `commands`, owned by this
 * module): finished commands with their own times, secret fields sealed as enqueueCommand seals them.
 */
import { protocol } from '@iot/contract';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Executor } from '../../db/client.js';
import { commands } from '../../db/schema.js';
import { protect } from './secrets.js';

/** One past command; times ms since epoch (completedAt set for a final state). */
export interface PastCommand {
  msgId: string;
  tenantId: number;
  lockId: number;
  type: protocol.DownlinkType;
  data: Record<string, unknown>;
  state: protocol.CommandState;
  attempts: number;
  createdBy: string;
  createdAt: number;
  completedAt?: number;
  resultCode?: number;
  resultDetail?: string;
  resultSlot?: number;
}

const date = (ms: number | undefined) => (ms === undefined ? null : new Date(ms));

/** Inserts `rows` (owner connection); returns their ids in order. */
export async function insertCommandHistory(db: Executor, rows: readonly PastCommand[], box: SecretBox): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += 500) {
    const inserted = await db.insert(commands).values(rows.slice(start, start + 500).map((row) => ({
      msgId: row.msgId, tenantId: row.tenantId, deviceKind: 'lock', lockId: row.lockId, type: row.type, data: protect(row.data, box), state: row.state,
      attempts: row.attempts, createdBy: row.createdBy, createdAt: new Date(row.createdAt),
      expiresAt: new Date(row.createdAt + protocol.COMMAND_TTL_MS), sentAt: row.attempts > 0 ? new Date(row.createdAt + 2000) : null,
      deliveredAt: row.state === 'SUCCESSFUL' || row.state === 'FAILED' ? new Date(row.createdAt + 2500) : null,
      completedAt: date(row.completedAt), resultCode: row.resultCode ?? null, resultDetail: row.resultDetail ?? null, resultSlot: row.resultSlot ?? null,
    }))).returning({ id: commands.id });
    ids.push(...inserted.map((row) => row.id));
  }
  return ids;
}
