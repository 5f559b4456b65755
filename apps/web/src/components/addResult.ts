/** The words for what adding locks to a group did (分组管理, 门锁信息's batch action). */
import type { LockGroupAddMembersResult } from '@iot/contract';
import type { TFunction } from 'i18next';

/** "Added N, M were members already" and, when some listed IMEIs are unknown, the list of them. */
export function addResultText(t: TFunction, result: LockGroupAddMembersResult): { summary: string; unknown?: string } {
  const summary = t('group:addedSummary', { added: result.added, already: result.alreadyMembers });
  if (result.unknownImeis.length === 0) return { summary };
  return { summary, unknown: t('group:unknownImeis', { count: result.unknownImeis.length, imeis: result.unknownImeis.join(', ') }) };
}
