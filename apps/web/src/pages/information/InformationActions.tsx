/**
 * 设备信息's actions, each shown to holders of its key and reusing the existing routes: push configuration
 * and sync clock (LOOK_CONFIG: the 门锁配置 form), reset secret (shown once) and disable / enable
 * (LOCK_REGISTRY), each confirmed first; add to a group (LOCK_GROUP_EDIT: the lock list's bulk action, for
 * this lock); and the lock's journal.
 */
import { commandEndpoints, type LockInformation, lockEndpoints, lockInformationEndpoints, type LockSecret } from '@iot/contract';
import { Button, Popconfirm, Space } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useAllowed } from '../../hooks/useSession';
import { AddToGroupModal } from '../../components/AddToGroupModal';
import { SecretModal } from '../../components/SecretModal';
import { ConfigModal } from '../../components/LockConfigModal';

const invalidate = [lockInformationEndpoints.information, lockEndpoints.list];

/** A button asking for confirmation first. */
function Confirmed({ label, question, run, danger, id }: { label: string; question: string; run(): Promise<unknown>; danger?: boolean; id: string }): ReactNode {
  const { t } = useTranslation('lock');
  return (
    <Popconfirm title={question} okText={t('ok')} cancelText={t('cancel')} okButtonProps={{ danger }} onConfirm={run}>
      <Button id={id} danger={danger}>{label}</Button>
    </Popconfirm>
  );
}

/** The action bar of the identity card. */
export function InformationActions({ info }: { info: LockInformation }) {
  const { t } = useTranslation('lock');
  const { t: tc } = useTranslation('command');
  const { t: ti } = useTranslation('information');
  const { t: tg } = useTranslation('group');
  const mayConfigure = useAllowed('LOOK_CONFIG');
  const mayRegister = useAllowed('LOCK_REGISTRY');
  const mayGroup = useAllowed('LOCK_GROUP_EDIT');
  const [grouping, setGrouping] = useState(false);
  const [configuring, setConfiguring] = useState(false);
  const [issued, setIssued] = useState<LockSecret>();
  const { lock } = info;
  const sync = useApiMutation({ mutationFn: () => call(commandEndpoints.clockSync, { body: { lockId: lock.id } }), success: tc('queued'), invalidate });
  const reset = useApiMutation({ mutationFn: () => call(lockEndpoints.resetSecret, { body: { id: lock.id } }), onSuccess: setIssued, invalidate });
  const enable = useApiMutation({ mutationFn: (enabled: boolean) => call(lockEndpoints.enable, { body: { id: lock.id, enabled } }), success: t('saved'), invalidate });
  const live = lock.state !== 'decommissioned';
  return (
    <Space wrap style={{ marginTop: 12 }} className="information-actions">
      {mayConfigure && live && <Button type="primary" id="information-push-config" onClick={() => setConfiguring(true)}>{tc('pushConfig')}</Button>}
      {mayConfigure && live && <Confirmed id="information-clock-sync" label={tc('clockSync')} question={tc('clockSyncConfirm')} run={() => sync.run()} />}
      {mayRegister && live && <Confirmed id="information-reset-secret" label={t('resetSecret')} question={t('resetConfirm', { imei: lock.imei })} run={() => reset.run()} />}
      {mayRegister && lock.state === 'active' && (
        <Confirmed id="information-disable" danger label={t('disable')} question={t('disableConfirm', { imei: lock.imei })} run={() => enable.run(false)} />
      )}
      {mayRegister && lock.state === 'disabled' && <Confirmed id="information-enable" label={t('enable')} question={ti('enableConfirm', { imei: lock.imei })} run={() => enable.run(true)} />}
      {mayGroup && live && <Button id="information-add-to-group" onClick={() => setGrouping(true)}>{tg('addToGroup')}</Button>}
      <Link to={`/lockJournal?imei=${lock.imei}`}>{ti('journal')}</Link>
      <AddToGroupModal open={grouping} target={{ imeis: [lock.imei] }} description={`${lock.name} (${lock.imei})`} onClose={() => setGrouping(false)} />
      <ConfigModal
        lock={configuring ? { id: lock.id, imei: lock.imei, config: info.config.reported } : undefined}
        onClose={() => setConfiguring(false)} onDone={() => setConfiguring(false)} invalidate={invalidate}
      />
      <SecretModal issued={issued} onClose={() => setIssued(undefined)} />
    </Space>
  );
}
