/** Columns of the lock list (门锁信息). */
import { LOW_BATTERY_PERCENT, type LockRecord, formatVersion } from '@iot/contract';
import { Badge, Button, Popconfirm, Progress, Space, Tag, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { LockLink } from '../../components/LockLink';
import { type MoreAction, MoreActions } from '../../components/MoreActions';
import { ServiceEndTag } from '../../components/ServiceEndTag';
import { formatTime } from '../../lib/timeZone';

const dash = '—';

/** Battery as a progress bar, red at or below LOW_BATTERY_PERCENT. */
function battery(value: number | null, t: TFunction) {
  if (value === null) return dash;
  const low = value <= LOW_BATTERY_PERCENT;
  return (
    <span title={low ? t('lowBattery') : undefined}>
      <Progress aria-label={t('battery')} percent={value} size="small" status={low ? 'exception' : 'normal'} format={(percent) => `${percent}%`} style={{ width: 110, margin: 0 }} />
    </span>
  );
}

/** Registry acts on a lock (holders of LOCK_REGISTRY). */
export interface LockActions {
  edit(lock: LockRecord): void;
  setEnabled(lock: LockRecord, enabled: boolean): Promise<unknown>;
  resetSecret(lock: LockRecord): Promise<unknown>;
  decommission(lock: LockRecord): Promise<unknown>;
  releaseImei(lock: LockRecord): Promise<unknown>;
}

const STATE_COLORS: Record<LockRecord['state'], string> = { active: 'green', disabled: 'orange', decommissioned: 'default' };

/** A link-styled button asking for confirmation first. */
function confirmed(t: TFunction, label: string, question: string, run: () => Promise<unknown>, danger = false) {
  return (
    <Popconfirm title={question} okText={t('ok')} cancelText={t('cancel')} okButtonProps={{ danger }} onConfirm={run}>
      <Button type="link" size="small" danger={danger}>{label}</Button>
    </Popconfirm>
  );
}

/**
 * The actions column: edit and disable / enable, resetting the secret and decommissioning under 更多
 * (holders of LOCK_REGISTRY), and `more` (a row's share of the list's bulk actions: add to group).
 */
function actionsColumn(t: TFunction, actions: LockActions | undefined, more: (lock: LockRecord) => MoreAction[]): TableColumnsType<LockRecord>[number] {
  return {
    title: t('actions'), key: 'actions', fixed: 'right',
    render: (_, lock) => {
      const imei = lock.imei;
      if (!actions) return more(lock).length > 0 ? <MoreActions items={more(lock)} /> : null;
      if (lock.state === 'decommissioned') return confirmed(t, t('releaseImei'), t('releaseConfirm', { imei }), () => actions.releaseImei(lock), true);
      return (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => actions.edit(lock)}>{t('edit')}</Button>
          {lock.state === 'active'
            ? confirmed(t, t('disable'), t('disableConfirm', { imei }), () => actions.setEnabled(lock, false))
            : <Button type="link" size="small" onClick={() => void actions.setEnabled(lock, true)}>{t('enable')}</Button>}
          <MoreActions items={[
            ...more(lock),
            { key: 'resetSecret', label: t('resetSecret'), confirm: t('resetConfirm', { imei }), run: () => actions.resetSecret(lock) },
            { key: 'decommission', label: t('decommission'), confirm: t('decommissionConfirm', { imei }), danger: true, run: () => actions.decommission(lock) },
          ]} />
        </Space>
      );
    },
  };
}

/**
 * Lock list columns in the current language, what an operator watches first (presence, last heartbeat,
 * battery, signal: in sight at 1366 px, columnFold.ts), the registry's facts after; with `actions`, the registry's
 * row actions; `rowAction`: a bulk action's share for one row.
 */
export function lockColumns(t: TFunction, actions?: LockActions, rowAction?: (lock: LockRecord) => MoreAction): TableColumnsType<LockRecord> {
  const columns: TableColumnsType<LockRecord> = [
    { title: t('imei'), dataIndex: 'imei', fixed: 'left', render: (imei: string) => <LockLink imei={imei} /> },
    { title: t('name'), dataIndex: 'name', render: (name: string, lock) => <LockLink imei={lock.imei}>{name}</LockLink> },
    { title: t('room'), dataIndex: 'room' },
    {
      title: t('status'),
      dataIndex: 'online',
      render: (online: boolean, lock) => (
        <Space size={4}>
          <Badge status={online ? 'success' : 'default'} text={online ? t('online') : t('offline')} />
          {lock.liveState === 'asleep' && <Tag color="purple">{t('liveStates.asleep')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('lastHeartbeat'),
      dataIndex: 'lastHeartbeatAt',
      render: (value: string | null) => (value ? formatTime(value) : dash),
    },
    { title: t('battery'), dataIndex: 'battery', width: 150, ellipsis: false, render: (value: number | null) => battery(value, t) },
    { title: `${t('rssi')} (dBm)`, dataIndex: 'rssi', align: 'right', render: (value: number | null) => value ?? dash },
    { title: `${t('snr')} (dB)`, dataIndex: 'snr', align: 'right', render: (value: number | null) => value ?? dash },
    { title: t('model'), dataIndex: 'model' },
    { title: t('firmware'), dataIndex: 'firmwareVersion', render: (value: string) => formatVersion(value) },
    { title: t('state'), dataIndex: 'state', render: (state: LockRecord['state']) => <Tag color={STATE_COLORS[state]}>{t(`states.${state}`)}</Tag> },
    { title: t('serviceEnd'), dataIndex: 'serviceEndAt', width: 130, render: (value: string | null) => <ServiceEndTag value={value} /> },
  ];
  if (actions || rowAction) columns.push(actionsColumn(t, actions, (lock) => (rowAction && lock.state !== 'decommissioned' ? [rowAction(lock)] : [])));
  return columns;
}
