/**
 * 通知规则: the data centre's rules (what: alert kinds and minimum severity; where: buildings,
 * groups, device types; which channels), add / edit (RuleModal) and delete after a confirmation.
 */
import { type Language, listText, type NotificationRuleRecord, notificationEndpoints as api } from '@iot/contract';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Space, Switch, Table, Tag, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { useApiMutation } from '../../../api/useApiMutation';
import { useApiQuery } from '../../../api/useApiQuery';
import { useLanguage } from '../../../hooks/useSession';
import { SEVERITY_COLORS } from '../../../components/alertColumns';
import { alertKindLabel } from './alertKinds';
import { RuleModal } from './RuleModal';


interface Actions { edit(r: NotificationRuleRecord): void; remove(r: NotificationRuleRecord): void; channelName(id: number): string }

function columns(t: TFunction, language: Language, actions: Actions): TableColumnsType<NotificationRuleRecord> {
  const list = (values: string[]) => listText(values, language);
  const scope = (r: NotificationRuleRecord) => {
    const parts = [
      r.buildings.length ? `${t('buildings')}: ${list(r.buildings)}` : '', r.groupIds.length ? `${t('groups')}: ${r.groupIds.length}` : '',
      r.deviceTypes.length ? `${t('deviceTypes')}: ${list(r.deviceTypes)}` : '',
    ].filter(Boolean);
    return parts.length ? parts.join(' · ') : t('allDevices');
  };
  return [
    { title: t('name'), dataIndex: 'name', width: 140, ellipsis: { showTitle: true } },
    { title: t('enabled'), dataIndex: 'enabled', width: 80, render: (on: boolean) => <Switch size="small" checked={on} disabled /> },
    { title: t('alertKinds'), dataIndex: 'kinds', width: 160, ellipsis: { showTitle: true }, render: (kinds: string[]) => (kinds.length ? list(kinds.map((k) => alertKindLabel(t, k))) : t('allKinds')) },
    { title: t('minSeverity'), dataIndex: 'minSeverity', width: 120, render: (s: string) => <Tag color={SEVERITY_COLORS[s]}>{t(`deviceLog:severities.${s}`)}</Tag> },
    { title: t('scope'), key: 'scope', width: 140, ellipsis: { showTitle: true }, render: (_, r) => scope(r) },
    { title: t('channels'), dataIndex: 'channelIds', width: 150, render: (ids: number[], r) => [
      ...ids.map((id) => <Tag key={id}>{actions.channelName(id)}</Tag>),
      r.recipientAccountIds.length + r.recipientRoleIds.length > 0 && <Tag key="people" color="blue">{t('recipientCount', { accounts: r.recipientAccountIds.length, roles: r.recipientRoleIds.length })}</Tag>,
    ] },
    { title: t('stormWindowShort'), dataIndex: 'stormWindowS', width: 100, align: 'right' },
    {
      title: t('actions'), key: 'actions', width: 110,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => actions.edit(r)}>{t('edit')}</Button>
          <Popconfirm title={t('deleteRuleConfirm', { name: r.name })} okText={t('ok')} cancelText={t('cancel')} onConfirm={() => actions.remove(r)}>
            <Button type="link" size="small" danger>{t('delete')}</Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
}

/** The rule table with its form. */
export function RulesTab() {
  const { t } = useTranslation(['notification', 'deviceLog']);
  const language = useLanguage();
  const rules = useApiQuery(api.rule.list);
  const channels = useApiQuery(api.channel.list);
  const [editing, setEditing] = useState<{ record?: NotificationRuleRecord; open: boolean }>({ open: false });
  const remove = useApiMutation({ mutationFn: (id: number) => call(api.rule.delete, { body: { id } }), success: t('deleted'), invalidate: [api.rule.list] });
  const cols = useMemo(() => {
    const names = new Map((channels.data ?? []).map((c) => [c.id, c.name]));
    return columns(t, language, {
      edit: (record) => setEditing({ record, open: true }), remove: (record) => void remove.run(record.id), channelName: (id) => names.get(id) ?? `#${id}`,
    });
  }, [t, language, channels.data, remove.run]);

  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle" className="page-card">
      <Space>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ open: true })}>{t('addRule')}</Button>
        <Button icon={<ReloadOutlined />} loading={rules.isFetching} onClick={() => void rules.refetch()}>{t('refresh')}</Button>
      </Space>
      <Table<NotificationRuleRecord>
        rowKey="id" size="middle" columns={cols} dataSource={rules.data ?? []} loading={rules.isLoading} pagination={false} tableLayout="fixed" scroll={{ x: 1000 }}
      />
      <RuleModal {...editing} onClose={() => setEditing((s) => ({ ...s, open: false }))} />
    </Space>
  );
}
