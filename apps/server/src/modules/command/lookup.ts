/** 下发日志 lookups behind the routes: a command with its payload facts. Tenant transaction. */
import type { Tx } from '../../db/client.js';
import { ApiError } from '../../http/api-error.js';
import { findCommand } from './repo.js';

/** The command of `id` with what its payload needs; 404 when not in the tenant. */
export async function commandForPara(tx: Tx, id: number) {
  const found = await findCommand(tx, id);
  if (!found) throw new ApiError('NOT_FOUND');
  const sentAtMs = found.sentAt ? Date.parse(found.sentAt) : null;
  return { found, payload: { msgId: found.msgId, type: found.type, data: found.rawData, sentAtMs } };
}
