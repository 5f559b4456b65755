/**
 * 卡片管理: IC cards (GET /iot/v1/operateCard/list) per lock or for all locks, sync states live; add,
 * delete (confirmed), retry or discard a failed one, report a card lost on every lock; the chosen lock's
 * card capacity.
 */
import { credentialEndpoints, type CredentialRecord } from '@iot/contract';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Tag, Space, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { DASH } from '../../components/logColumns';
import { ServerTable } from '../../components/ServerTable';
import { CardModal, ReportLostModal } from './CardModals';
import { createdAndActions, holderColumns, lockColumn, syncColumn } from '../../components/credential/columns';
import { credentialFormValues, LOCK_FIELD, LockCapacity, LockFilterItem, usePickedLock } from '../../components/credential/LockBar';
import { listQuery, RowActions, SYNC_REFETCH_MS, SyncAndKeywordFilters, useOperation } from '../../components/credential/shared';

const LISTS = [credentialEndpoints.cardList, credentialEndpoints.capacity];

/** The card page. */
export default function VoucherCardManagePage() {
  const { t } = useTranslation('credential');
  const lockId = usePickedLock();
  const [dialog, setDialog] = useState<'add' | 'lost'>();
  // A card reported lost from its row (every bulk action also on its row).
  const [lostCard, setLostCard] = useState<{ cardNumber: string; reversed: boolean }>();
  const operate = useOperation(...LISTS);
  const columns = useMemo<TableColumnsType<CredentialRecord>>(() => [
    lockColumn<CredentialRecord>(t),
    { title: t('cardNumber'), dataIndex: 'cardNumber', render: (v: string | null, r) => <><code>{v ?? DASH}</code>{r.reversed && <Tag style={{ marginInlineStart: 8 }}>{t('reversed')}</Tag>}</> },
    { title: t('slot'), dataIndex: 'slot', align: 'right', render: (v: number | null) => v ?? DASH, sorter: true },
    ...holderColumns(t),
    syncColumn<CredentialRecord>(t),
    ...createdAndActions(t, (row) => (
      <RowActions row={row} routes={credentialEndpoints.card} lists={LISTS}
        onDelete={(r) => operate(() => call(credentialEndpoints.cardOperate, { body: { action: 'delete', id: r.id } }), t('saved'))}>
        {row.syncState === 'normal' && row.cardNumber && (
          <Button type="link" size="small" danger className="card-report-lost"
            onClick={() => { setLostCard({ cardNumber: row.cardNumber ?? '', reversed: row.reversed }); setDialog('lost'); }}>{t('reportLost')}</Button>
        )}
      </RowActions>
    )),
  ], [t, operate]);
  const filters = <><LockFilterItem /><SyncAndKeywordFilters placeholder="cardKeywordPlaceholder" width={200} /></>;
  const toolbar = (
    <Space className="credential-lock-bar">
      <Button danger onClick={() => { setLostCard(undefined); setDialog('lost'); }}>{t('reportLost')}</Button>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog('add')}>{t('addCard')}</Button>
    </Space>
  );
  return (
    <>
      <ServerTable<CredentialRecord>
        endpoint={credentialEndpoints.cardList}
        columns={columns}
        rowKey="id"
        filters={filters}
        initialFilters={{ syncState: 'all' }}
        toQuery={listQuery} fromQuery={credentialFormValues} instant={LOCK_FIELD}
        header={<LockCapacity lockId={lockId} tables={['cards']} />} toolbar={toolbar}
        refetchInterval={SYNC_REFETCH_MS}
      />
      <CardModal open={dialog === 'add'} lockId={lockId} onClose={() => setDialog(undefined)} />
      <ReportLostModal open={dialog === 'lost'} card={lostCard} onClose={() => { setDialog(undefined); setLostCard(undefined); }} />
    </>
  );
}
