/**
 * 指纹管理: fingerprints (GET /iot/v1/operateFp/list) per lock or for all locks, sync states live;
 * remote enrolment with live progress, delete (confirmed), retry or discard a failed one; the chosen
 * lock's fingerprint capacity.
 */
import { credentialEndpoints, type CredentialRecord } from '@iot/contract';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Space, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { DASH } from '../../components/logColumns';
import { ServerTable } from '../../components/ServerTable';
import { createdAndActions, holderColumns, lockColumn, syncColumn } from '../../components/credential/columns';
import { EnrolModal } from './EnrolModal';
import { credentialFormValues, LOCK_FIELD, LockCapacity, LockFilterItem, usePickedLock } from '../../components/credential/LockBar';
import { listQuery, RowActions, SYNC_REFETCH_MS, SyncAndKeywordFilters, useOperation } from '../../components/credential/shared';

const LISTS = [credentialEndpoints.fpList, credentialEndpoints.capacity];

/** The fingerprint page. */
export default function VoucherFpManagePage() {
  const { t } = useTranslation('credential');
  const lockId = usePickedLock();
  const [enrolling, setEnrolling] = useState(false);
  const operate = useOperation(...LISTS);
  const columns = useMemo<TableColumnsType<CredentialRecord>>(() => [
    lockColumn<CredentialRecord>(t),
    { title: t('slot'), dataIndex: 'slot', align: 'right', render: (v: number | null) => v ?? DASH, sorter: true },
    ...holderColumns(t),
    syncColumn<CredentialRecord>(t),
    ...createdAndActions(t, (row) => (
      <RowActions row={row} routes={credentialEndpoints.fp} lists={LISTS}
        onDelete={(r) => operate(() => call(credentialEndpoints.addFingerPrint, { body: { action: 'delete', id: r.id } }), t('saved'))} />
    )),
  ], [t, operate]);
  const filters = <><LockFilterItem /><SyncAndKeywordFilters placeholder="userKeywordPlaceholder" width={180} /></>;
  const toolbar = (
    <Space className="credential-lock-bar">
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setEnrolling(true)}>{t('enrol')}</Button>
    </Space>
  );
  return (
    <>
      <ServerTable<CredentialRecord>
        endpoint={credentialEndpoints.fpList}
        columns={columns}
        rowKey="id"
        filters={filters}
        initialFilters={{ syncState: 'all' }}
        toQuery={listQuery} fromQuery={credentialFormValues} instant={LOCK_FIELD}
        header={<LockCapacity lockId={lockId} tables={['fingerprints']} />} toolbar={toolbar}
        refetchInterval={SYNC_REFETCH_MS}
      />
      <EnrolModal open={enrolling} lockId={lockId} onClose={() => setEnrolling(false)} />
    </>
  );
}
