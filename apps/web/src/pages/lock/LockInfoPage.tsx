/**
 * 门锁信息, the lock registry: the live lock list (GET /iot/v1/lockDevice/list) filtered by
 * keyword, live state, attention, device type, location, firmware and state (LockFilters.tsx, in the
 * URL; group too), refetched every 5 s in the background, exportable as CSV / Excel with the same filters. Holders of LOCK_REGISTRY register
 * locks (the device secret shown once), edit, disable, reset secrets, decommission and release IMEIs;
 * holders of LOCK_GROUP_EDIT add the selected locks or every lock of the current filter to a group.
 */
import { type LockRecord, type LockSecret, lockEndpoints } from '@iot/contract';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useAllowed } from '../../hooks/useSession';
import { ServerTable } from '../../components/ServerTable';
import { lockColumns } from './columns';
import { useGroupActions } from './GroupControls';
import { INITIAL_LOCK_FILTERS, LockFilterItems, lockFormValues, lockQuery } from './LockFilters';
import { ImportModal } from './ImportModal';
import { LockModal } from './LockModal';
import { SecretModal } from '../../components/SecretModal';

const REFETCH_MS = 5000;

/** The lock information page. */
export default function LockInfoPage() {
  const { t } = useTranslation('lock');
  const mayRegister = useAllowed('LOCK_REGISTRY');
  const [modal, setModal] = useState<{ open: boolean; editing?: LockRecord }>({ open: false });
  const [issued, setIssued] = useState<LockSecret>();
  const [importing, setImporting] = useState(false);
  const invalidate = [lockEndpoints.list];
  const act = useApiMutation({
    mutationFn: ({ endpoint, id }: { endpoint: 'decommission' | 'releaseImei'; id: number }) => call(lockEndpoints[endpoint], { body: { id } }),
    success: t('saved'), invalidate,
  });
  const enable = useApiMutation({ mutationFn: (body: { id: number; enabled: boolean }) => call(lockEndpoints.enable, { body }), success: t('saved'), invalidate });
  const reset = useApiMutation({ mutationFn: (id: number) => call(lockEndpoints.resetSecret, { body: { id } }), onSuccess: setIssued, invalidate });

  const [run, setEnabled, resetSecret] = [act.run, enable.run, reset.run];
  const groups = useGroupActions();
  const { rowAction } = groups;
  const columns = useMemo(() => lockColumns(t, mayRegister ? {
    edit: (editing) => setModal({ open: true, editing }),
    setEnabled: (lock, enabled) => setEnabled({ id: lock.id, enabled }),
    resetSecret: (lock) => resetSecret(lock.id),
    decommission: (lock) => run({ endpoint: 'decommission', id: lock.id }),
    releaseImei: (lock) => run({ endpoint: 'releaseImei', id: lock.id }),
  } : undefined, rowAction), [t, mayRegister, run, setEnabled, resetSecret, rowAction]);

  const toolbar = (
    <Space>
      {groups.toolbar}
      {mayRegister && <Button id="lock-import" icon={<UploadOutlined />} onClick={() => setImporting(true)}>{t('importButton')}</Button>}
      {mayRegister && <Button type="primary" icon={<PlusOutlined />} onClick={() => setModal({ open: true })}>{t('register')}</Button>}
    </Space>
  );
  return (
    <>
      <ServerTable<LockRecord> endpoint={lockEndpoints.list} columns={columns} rowKey="imei" filters={<LockFilterItems />}
        initialFilters={INITIAL_LOCK_FILTERS} fromQuery={lockFormValues} toQuery={lockQuery} refetchInterval={REFETCH_MS} exportEndpoint={lockEndpoints.export}
        toolbar={toolbar} batchActions={groups.batchActions} />
      {groups.modal}
      <LockModal {...modal} onClose={() => setModal((current) => ({ ...current, open: false }))} onIssued={setIssued} />
      <SecretModal issued={issued} onClose={() => setIssued(undefined)} />
      {mayRegister && <ImportModal open={importing} onClose={() => setImporting(false)} />}
    </>
  );
}
