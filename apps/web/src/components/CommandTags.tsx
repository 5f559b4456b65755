/**
 * Command state and type tags and the command's answer, shared by 下发日志, 门锁配置 and the credential
 * operation logs (labels from the `command` namespace; result codes from the contract).
 */
import { type CommandRecord, type protocol, resultCodeText } from '@iot/contract';
import { Badge, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../hooks/useSession';
import i18n from '../i18n';
import type { DrawsCellText } from './columnFit';
import { DASH } from './logColumns';

/** The language the console shows (the cell texts of the width estimate). */
const shownLanguage = () => (i18n.language === 'en-US' ? 'en-US' : 'zh-CN');

type Status = 'default' | 'processing' | 'success' | 'error' | 'warning';
const STATE_STATUS: Record<protocol.CommandState, Status> = {
  QUEUED: 'default', SENT: 'processing', DELIVERED: 'processing', SUCCESSFUL: 'success', FAILED: 'error', TIMEOUT: 'warning', EXPIRED: 'warning', CANCELED: 'default',
};

/** The live state of a command as a Badge (Badge: live state; Tag: categories; data-state carries the raw state for tests). */
export function StateBadge({ state }: { state: protocol.CommandState }) {
  const { t } = useTranslation('command');
  return <span className="command-state" data-state={state}><Badge status={STATE_STATUS[state]} text={t(`states.${state}`)} /></span>;
}
StateBadge.cellText = (({ state }) => i18n.t(`command:states.${state}`)) satisfies DrawsCellText<{ state: protocol.CommandState }>['cellText'];

/** The command type as a tag. */
export function TypeTag({ type }: { type: protocol.DownlinkType }) {
  const { t } = useTranslation('command');
  return <Tag color="blue">{t(`types.${type}`)}</Tag>;
}
TypeTag.cellText = (({ type }) => i18n.t(`command:types.${type}`)) satisfies DrawsCellText<{ type: protocol.DownlinkType }>['cellText'];

type Answer = Pick<CommandRecord, 'resultCode' | 'resultDetail' | 'resultSlot'>;

/**
 * The answer of a finished command in the current language: its result code's label and the slot the
 * lock assigned; the lock's own text (free, often English) in a tooltip. — before an answer.
 */
export function CommandResult({ record }: { record: Answer }) {
  const { t } = useTranslation();
  const language = useLanguage();
  if (record.resultCode === null && !record.resultDetail) return DASH;
  const text = resultCodeText(record.resultCode, record.resultSlot, language);
  const said = record.resultDetail ? t('deviceText', { text: record.resultDetail }) : undefined;
  if (!text) return <span className="command-result">{said}</span>;
  return <Tooltip title={said}><span className="command-result" data-code={record.resultCode}>{text}</span></Tooltip>;
}
CommandResult.cellText = (({ record }) => {
  if (record.resultCode === null && !record.resultDetail) return DASH;
  return resultCodeText(record.resultCode, record.resultSlot, shownLanguage()) || i18n.t('deviceText', { text: record.resultDetail });
}) satisfies DrawsCellText<{ record: Answer }>['cellText'];
