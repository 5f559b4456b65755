/** Columns of the notification-channel table: name, kind, language, address and secret (masked), last test, actions. */
import type { NotificationChannelRecord } from '@iot/contract';
import { Button, Popconfirm, Space, Tag, Tooltip, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { DASH, formatTime } from '../../../components/logColumns';

export interface ChannelActions {
  edit(record: NotificationChannelRecord): void;
  test(record: NotificationChannelRecord): void;
  remove(record: NotificationChannelRecord): void;
  /** The channel whose test message is on its way, if any. */
  testing?: number;
}

/** The last test: a green 成功 / red 失败 tag (the receiver's reason on hover) and its time; 未测试 before the first. */
function LastTest({ record, t }: { record: NotificationChannelRecord; t: TFunction }) {
  const test = record.lastTest;
  if (!test) return <Tag>{t('neverTested')}</Tag>;
  return (
    <Space size={4}>
      <Tooltip title={test.error}><Tag color={test.sent ? 'green' : 'red'}>{t(test.sent ? 'testSent' : 'testFailed')}</Tag></Tooltip>
      <span>{formatTime(test.at)}</span>
    </Space>
  );
}

/** An e-mail channel's address: sender -> recipients at host:port. */
const addressOf = (r: NotificationChannelRecord) => (r.email ? `${r.email.to.join(', ')} (${r.email.host}:${r.email.port})` : (r.url ?? DASH));

/** Their widths' sum: the table's scroll width (it fits the content area at 1366 px in both languages: no pinned column hides another). */
export const CHANNEL_TABLE_WIDTH = 1020;

/** The columns in the current language. */
export function channelColumns(t: TFunction, actions: ChannelActions): TableColumnsType<NotificationChannelRecord> {
  return [
    { title: t('name'), dataIndex: 'name', width: 120, ellipsis: { showTitle: true }, render: (name: string, r) => <Space>{name}{!r.enabled && <Tag>{t('disabled')}</Tag>}</Space> },
    { title: t('kind'), dataIndex: 'kind', width: 120, render: (kind: string) => <Tag color="blue">{t(`kinds.${kind}`)}</Tag> },
    { title: t('language'), dataIndex: 'language', width: 90, render: (language: string) => t(`languages.${language}`) },
    { title: t('endpoint'), key: 'address', width: 170, ellipsis: { showTitle: true }, render: (_, r) => addressOf(r) },
    { title: t('secret'), dataIndex: 'secretHint', width: 90, render: (hint: string | null) => hint ?? DASH },
    { title: t('lastTest'), key: 'lastTest', width: 180, render: (_, r) => <LastTest record={r} t={t} /> },
    {
      title: t('actions'), key: 'actions', width: 250,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => actions.edit(r)}>{t('edit')}</Button>
          <Button type="link" size="small" loading={actions.testing === r.id} onClick={() => actions.test(r)}>{t('sendTest')}</Button>
          <Popconfirm title={t('deleteChannelConfirm', { name: r.name })} okText={t('ok')} cancelText={t('cancel')} onConfirm={() => actions.remove(r)}>
            <Button type="link" size="small" danger>{t('delete')}</Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
}
