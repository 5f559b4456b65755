/**
 * 门锁信息, the lock registry (issue #11): the live lock list (GET /iot/v1/lockDevice/list) filtered by
 * keyword, online, low battery, device type, building and state (in the URL), refetched every 5 s in
 * the background, exportable as CSV / Excel with the same filters. Holders of LOCK_REGISTRY register
 * locks (the device secret shown once), edit, disable, reset secrets, decommission and release IMEIs.
 */
import { deviceTypeEndpoints, type LockRecord, type LockSecret, lockEndpoints } from '@iot/contract';
import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Checkbox, Form, Input, Select } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiQuery } from '../../api/useApiQuery';
import { useInvalidate } from '../../api/useInvalidate';
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
  const { message } = App.useApp();
  const mayRegister = useAllowed('LOCK_REGISTRY');
  const [modal, setModal] = useState<{ open: boolean; editing?: LockRecord }>({ open: false });
  const [issued, setIssued] = useState<LockSecret>();
  const refresh = useInvalidate(lockEndpoints.list);
  const { data: types } = useApiQuery(deviceTypeEndpoints.options);

  const columns = useMemo(() => {
    const change = async (run: () => Promise<unknown>) => {
      try {
        await run();
        message.success(t('saved'));
      } catch {
        /* shown by the client */
      }
      await refresh();
    };
    return lockColumns(t, mayRegister ? {
      edit: (editing) => setModal({ open: true, editing }),
      setEnabled: (lock, enabled) => change(() => call(lockEndpoints.enable, { body: { id: lock.id, enabled } })),
      resetSecret: (lock) => change(async () => setIssued(await call(lockEndpoints.resetSecret, { body: { id: lock.id } }))),
      decommission: (lock) => change(() => call(lockEndpoints.decommission, { body: { id: lock.id } })),
      releaseImei: (lock) => change(() => call(lockEndpoints.releaseImei, { body: { id: lock.id } })),
    } : undefined);
  }, [t, mayRegister, message, refresh]);

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
      <LockModal {...modal} onClose={() => setModal((current) => ({ ...current, open: false }))}
        onSaved={(secret) => { void refresh(); if (secret) setIssued(secret); }} />
      <SecretModal issued={issued} onClose={() => setIssued(undefined)} />
    </>
  );
}
