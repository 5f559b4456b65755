/** Command state and type tags, shared by 下发日志 and 门锁配置 (labels from the `command` namespace). */
import type { CommandRecord, protocol } from '@iot/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const STATE_COLORS: Record<protocol.CommandState, string> = {
  QUEUED: 'default', SENT: 'processing', DELIVERED: 'cyan', SUCCESSFUL: 'success', FAILED: 'error', TIMEOUT: 'warning', EXPIRED: 'orange', CANCELED: 'default',
};

/** The live state of a command as a coloured tag (data-state carries the raw state for tests). */
export function StateTag({ state }: { state: protocol.CommandState }) {
  const { t } = useTranslation('command');
  return <Tag color={STATE_COLORS[state]} data-state={state}>{t(`states.${state}`)}</Tag>;
}

/** The command type as a tag. */
export function TypeTag({ type }: { type: protocol.DownlinkType }) {
  const { t } = useTranslation('command');
  return <Tag color="blue">{t(`types.${type}`)}</Tag>;
}

/** "code · detail · slot" of a finished command, or —. */
export function resultText(record: Pick<CommandRecord, 'resultCode' | 'resultDetail' | 'resultSlot'>): string {
  if (record.resultCode === null && !record.resultDetail) return '—';
  return [record.resultCode, record.resultDetail, record.resultSlot === null ? undefined : `#${record.resultSlot}`].filter((part) => part !== undefined && part !== null).join(' · ');
}
