/**
 * The inbox drawer: the caller's latest notifications, newest first, unread ones marked;
 * "mark read" per item and "mark all read"; clicking one marks it read and opens its object (a lock
 * alert in 门锁警告, filtered to its lock and kind; an air-switch alarm in 报警日志; a lock's failed command or
 * credential sync in its 设备信息; a paused rollout in 固件管理; an order in 订单管理; a paused push endpoint in 订阅管理); an unacknowledged
 * lock alert can be acknowledged with a note right here.
 */
import { isNotificationEventKind, LOG_LABELS, type NotificationInboxRecord, notificationInboxEndpoints } from '@iot/contract';
import { Badge, Button, Drawer, Empty, List, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { call } from '../api/client';
import { useApiMutation } from '../api/useApiMutation';
import { formatTime } from '../lib/timeZone';
import { useLanguage } from '../hooks/useSession';
import { AcknowledgeAlertButton } from './AcknowledgeAlert';

const SEVERITY_COLOURS = { critical: 'red', major: 'orange', minor: 'gold', warning: 'blue' } as const;

/** Where a notification's object is in the console. */
export function objectPath(item: NotificationInboxRecord): string {
  if (item.deviceKind === 'airSwitch') return '/lockAlertLog';
  if (item.deviceKind === 'rollout') return '/firmwareRule';
  if (item.deviceKind === 'customer') return '/subscriptionManagement';
  if (item.deviceKind === 'stay') return '/RoomInquiry';
  if (item.deviceKind === 'order') return `/orderManagement?${new URLSearchParams(item.deviceCode ? { keyword: item.deviceCode } : {})}`;
  if (isNotificationEventKind(item.kind)) return `/Information?${new URLSearchParams(item.deviceCode ? { imei: item.deviceCode } : {})}`;
  const query = new URLSearchParams({ kind: item.kind, ...(item.deviceCode ? { imei: item.deviceCode } : {}) });
  return `/lockAlert?${query}`;
}

interface Props {
  open: boolean;
  onClose: () => void;
  page: { records: NotificationInboxRecord[]; unread: number } | undefined;
}

/** The drawer of the header's bell. */
export function InboxDrawer({ open, onClose, page }: Props) {
  const { t } = useTranslation('inbox');
  const language = useLanguage();
  const navigate = useNavigate();
  const { run: markRead } = useApiMutation({
    mutationFn: (body: { ids: number[] } | { all: true }) => call(notificationInboxEndpoints.read, { body }),
    invalidate: [notificationInboxEndpoints.list],
  });
  const kindLabel = (kind: string) => {
    const labels = { ...LOG_LABELS.kinds, ...LOG_LABELS.airSwitchKinds, ...LOG_LABELS.eventKinds } as Record<string, { 'zh-CN': string; 'en-US': string }>;
    return labels[kind]?.[language] ?? kind;
  };
  const openItem = (item: NotificationInboxRecord) => {
    if (!item.readAt) void markRead({ ids: [item.id] });
    onClose();
    void navigate(objectPath(item));
  };

  return (
    <Drawer
      title={t('title')} open={open} onClose={onClose} width={420} className="inbox-drawer"
      extra={<Button size="small" disabled={!page?.unread} onClick={() => void markRead({ all: true })}>{t('markAllRead')}</Button>}
    >
      {!page || page.records.length === 0 ? <Empty description={t('empty')} /> : (
        <List<NotificationInboxRecord>
          dataSource={page.records}
          rowKey="id"
          renderItem={(item) => (
            <List.Item
              className="inbox-item" data-unread={!item.readAt} onClick={() => openItem(item)}
              actions={[
                !item.readAt && <Button key="read" type="link" size="small" onClick={(event) => { event.stopPropagation(); void markRead({ ids: [item.id] }); }}>{t('markRead')}</Button>,
                (item.deviceKind === 'lock' || item.deviceKind === 'airSwitch') && item.alertId !== null && (item.acknowledgedAt
                  ? <Typography.Text key="ack" type="secondary">{t('acknowledged')}</Typography.Text>
                  : <AcknowledgeAlertButton key="ack" alertId={item.alertId} deviceKind={item.deviceKind} />),
              ].filter(Boolean)}
            >
              <List.Item.Meta
                avatar={<Badge dot={!item.readAt} />}
                title={(
                  <Space size={4} wrap>
                    <Tag color={SEVERITY_COLOURS[item.severity]}>{LOG_LABELS.severities[item.severity][language]}</Tag>
                    <span>{kindLabel(item.kind)}</span>
                    {item.count > 1 && <Typography.Text type="secondary">{t('repeated', { count: item.count })}</Typography.Text>}
                  </Space>
                )}
                description={<>{item.deviceKind !== 'lock' && `${t(item.deviceKind)} · `}{item.deviceName ?? item.deviceCode ?? item.deviceId} · {formatTime(item.createdAt)}</>}
              />
            </List.Item>
          )}
        />
      )}
    </Drawer>
  );
}
