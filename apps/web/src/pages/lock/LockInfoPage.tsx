/**
 * 门锁信息, the lock registry (issue #11): the live lock list (GET /iot/v1/lockDevice/list) filtered by
 * keyword, online, low battery, device type, building and state (in the URL), refetched every 5 s in
 * the background, exportable as CSV / Excel with the same filters. Holders of LOCK_REGISTRY register
 * locks (the device secret shown once), edit, disable, reset secrets, decommission and release IMEIs.
 */
import { deviceTypeEndpoints, type LockRecord, type LockSecret, lockEndpoints } from '@iot/contract';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Checkbox, Form, Input, Select } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';
import { useAllowed } from '../../app/useSession';
import { ServerTable } from '../../components/ServerTable';
import { lockColumns } from './columns';
import { LockModal } from './LockModal';
import { SecretModal } from './SecretModal';

const REFETCH_MS = 5000;

/** Form values -> query: 'all' choices dropped, text trimmed. */
function toQuery(values: Record<string, unknown>) {
  const text = (key: string) => (typeof values[key] === 'string' ? (values[key] as string).trim() || undefined : undefined);
  const online = values.online === 'true' || values.online === 'false' ? values.online : undefined;
  const lowBattery = values.lowBattery === true || values.lowBattery === 'true' ? 'true' : undefined;
  const state = typeof values.state === 'string' && values.state !== 'registered' ? values.state : undefined;
  return { keyword: text('keyword'), online, lowBattery, model: text('model'), building: text('building'), floor: text('floor'), state, firmwareVersion: text('firmwareVersion') };
}

/** The lock information page. */
export default function LockInfoPage() {
  const { t } = useTranslation('lock');
  const mayRegister = useAllowed('LOCK_REGISTRY');
  const [modal, setModal] = useState<{ open: boolean; editing?: LockRecord }>({ open: false });
  const [issued, setIssued] = useState<LockSecret>();
  const { data: types } = useApiQuery(deviceTypeEndpoints.options);
  const invalidate = [lockEndpoints.list];
  const act = useApiMutation({
    mutationFn: ({ endpoint, id }: { endpoint: 'decommission' | 'releaseImei'; id: number }) => call(lockEndpoints[endpoint], { body: { id } }),
    success: t('saved'), invalidate,
  });
  const enable = useApiMutation({ mutationFn: (body: { id: number; enabled: boolean }) => call(lockEndpoints.enable, { body }), success: t('saved'), invalidate });
  const reset = useApiMutation({ mutationFn: (id: number) => call(lockEndpoints.resetSecret, { body: { id } }), onSuccess: setIssued, invalidate });

  const [run, setEnabled, resetSecret] = [act.run, enable.run, reset.run];
  const columns = useMemo(() => lockColumns(t, mayRegister ? {
    edit: (editing) => setModal({ open: true, editing }),
    setEnabled: (lock, enabled) => setEnabled({ id: lock.id, enabled }),
    resetSecret: (lock) => resetSecret(lock.id),
    decommission: (lock) => run({ endpoint: 'decommission', id: lock.id }),
    releaseImei: (lock) => run({ endpoint: 'releaseImei', id: lock.id }),
  } : undefined), [t, mayRegister, run, setEnabled, resetSecret]);

  const filters = (
    <>
      <Form.Item name="keyword" label={t('keyword')}>
        <Input id="lock-keyword" allowClear placeholder={t('keywordPlaceholder')} style={{ width: 200 }} />
      </Form.Item>
      <Form.Item name="online" label={t('status')}>
        <Select style={{ width: 110 }} options={[
          { value: 'all', label: t('common:all') }, { value: 'true', label: t('online') }, { value: 'false', label: t('offline') },
        ]} />
      </Form.Item>
      <Form.Item name="model" label={t('model')}>
        <Select id="lock-filter-model" allowClear style={{ width: 130 }} placeholder={t('allTypes')} options={(types ?? []).map((type) => ({ value: type.model, label: type.model }))} />
      </Form.Item>
      <Form.Item name="building" label={t('building')}>
        <Input allowClear style={{ width: 110 }} />
      </Form.Item>
      <Form.Item name="state" label={t('state')}>
        <Select style={{ width: 150 }} options={[
          ...(['registered', 'active', 'disabled', 'decommissioned', 'all'] as const).map((value) => ({ value, label: t(`states.${value}`) })),
        ]} />
      </Form.Item>
      <Form.Item name="lowBattery" valuePropName="checked" getValueProps={(value) => ({ checked: value === true || value === 'true' })}>
        <Checkbox>{t('lowBattery')}</Checkbox>
      </Form.Item>
    </>
  );
  const toolbar = mayRegister
    ? <Button type="primary" icon={<PlusOutlined />} onClick={() => setModal({ open: true })}>{t('register')}</Button>
    : undefined;
  return (
    <>
      <ServerTable<LockRecord> endpoint={lockEndpoints.list} columns={columns} rowKey="id" filters={filters}
        initialFilters={{ online: 'all', state: 'registered' }} fromQuery={(query) => ({ online: 'all', state: 'registered', ...query })}
        toQuery={toQuery} refetchInterval={REFETCH_MS} exportEndpoint={lockEndpoints.export} toolbar={toolbar} />
      <LockModal {...modal} onClose={() => setModal((current) => ({ ...current, open: false }))} onIssued={setIssued} />
      <SecretModal issued={issued} onClose={() => setIssued(undefined)} />
    </>
  );
}
