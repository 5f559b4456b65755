/**
 * 密码管理: permanent and temporary passwords (GET /iot/v1/operatePassword/list), per lock or for all
 * locks, digits masked, sync states refreshed live in the background; add, delete (confirmed), retry
 * or discard a failed one; "reveal" only for holders of VOUCHER_PASSWORD_REVEAL (the server enforces
 * it too); "try on the keypad" for the simulated locks; the chosen lock's password capacity; offline
 * codes: issue one (LOCK_OFFLINE_CODE) and list the issued ones.
 */
import { credentialEndpoints, type CredentialRecord } from '@iot/contract';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Select, Tag, Space, type TableColumnsType } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { mayOpen, useUserInfo } from '../../hooks/useSession';
import { DASH } from '../../components/logColumns';
import { ServerTable } from '../../components/ServerTable';
import { createdAndActions, holderColumns, lockColumn, validityAndSync } from '../../components/credential/columns';
import { credentialFormValues, LOCK_FIELD, LockCapacity, LockFilterItem, usePickedLock } from '../../components/credential/LockBar';
import { OfflineCodeList } from './OfflineCodeList';
import { OfflineCodeModal } from './OfflineCodeModal';
import { PasswordModal } from './PasswordModal';
import { RevealModal, TryOpenModal, type TryTarget } from './PasswordDialogs';
import { listQuery, RowActions, SYNC_REFETCH_MS, SyncAndKeywordFilters, useOperation } from '../../components/credential/shared';

const LISTS = [credentialEndpoints.passwordList, credentialEndpoints.capacity];

/** The password page. */
export default function VoucherPasswordManagePage() {
  const { t } = useTranslation(['credential', 'offlineCode']);
  const lockId = usePickedLock();
  const [adding, setAdding] = useState(false);
  const [revealed, setRevealed] = useState<CredentialRecord>();
  const [trying, setTrying] = useState<TryTarget>();
  const [offline, setOffline] = useState<'issue' | 'list'>();
  const { data: info } = useUserInfo();
  const mayReveal = info !== undefined && mayOpen(info, 'VOUCHER_PASSWORD_REVEAL');
  const mayIssueOffline = info !== undefined && mayOpen(info, 'LOCK_OFFLINE_CODE');
  const operate = useOperation(...LISTS);
  const closeReveal = useCallback(() => setRevealed(undefined), []);

  const columns = useMemo<TableColumnsType<CredentialRecord>>(() => {
    const remove = (row: CredentialRecord) => operate(() => (row.kind === 'password'
      ? call(credentialEndpoints.foreverPassword, { body: { action: 'delete', id: row.id } })
      : call(credentialEndpoints.tempPassword, { body: { action: 'delete', id: row.id } })), t('saved'));
    return [
      lockColumn<CredentialRecord>(t),
      { title: t('slot'), dataIndex: 'slot', align: 'right', render: (v: number | null) => v ?? DASH, sorter: true },
      { title: t('kind'), dataIndex: 'kind', render: (k: CredentialRecord['kind'], r) => <>{t(`kinds.${k}`)}{r.oneTime && <Tag style={{ marginInlineStart: 8 }}>{t('oneTime')}</Tag>}</> },
      { title: t('password'), dataIndex: 'secret', render: (s: string | null) => <code>{s ?? DASH}</code> },
      ...holderColumns(t),
      ...validityAndSync<CredentialRecord>(t),
      ...createdAndActions(t, (row) => (
        <RowActions row={row} routes={credentialEndpoints.password} lists={LISTS} onDelete={remove}>
          {mayReveal && <Button type="link" size="small" onClick={() => setRevealed(row)}>{t('reveal')}</Button>}
          {row.syncState === 'normal' && <Button type="link" size="small" onClick={() => setTrying(row)}>{t('tryOnKeypad')}</Button>}
        </RowActions>
      )),
    ];
  }, [t, operate, mayReveal]);

  const filters = (
    <>
      <LockFilterItem />
      <Form.Item name="kind" label={t('kind')}>
        <Select style={{ width: 150 }} options={[{ value: 'all', label: t('all') }, ...(['password', 'tempPassword'] as const).map((k) => ({ value: k, label: t(`kinds.${k}`) }))]} />
      </Form.Item>
      <SyncAndKeywordFilters placeholder="userKeywordPlaceholder" />
    </>
  );
  const toolbar = (
    <Space className="credential-lock-bar">
      {lockId !== undefined && <Button onClick={() => setTrying({ lockId })}>{t('tryOnKeypad')}</Button>}
      <Button className="offline-code-list-button" onClick={() => setOffline('list')}>{t('offlineCode:listButton')}</Button>
      {mayIssueOffline && <Button className="offline-code-button" onClick={() => setOffline('issue')}>{t('offlineCode:button')}</Button>}
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>{t('addPassword')}</Button>
    </Space>
  );
  return (
    <>
      <ServerTable<CredentialRecord>
        endpoint={credentialEndpoints.passwordList}
        columns={columns}
        rowKey="id"
        filters={filters}
        initialFilters={{ kind: 'all', syncState: 'all' }}
        toQuery={listQuery} fromQuery={credentialFormValues} instant={LOCK_FIELD}
        header={<LockCapacity lockId={lockId} tables={['passwords']} />} toolbar={toolbar}
        refetchInterval={SYNC_REFETCH_MS}
      />
      <PasswordModal open={adding} lockId={lockId} onClose={() => setAdding(false)} />
      <RevealModal row={revealed} onClose={closeReveal} />
      <TryOpenModal target={trying} onClose={() => setTrying(undefined)} />
      <OfflineCodeModal open={offline === 'issue'} lockId={lockId} onClose={() => setOffline(undefined)} />
      <OfflineCodeList open={offline === 'list'} lockId={lockId} onClose={() => setOffline(undefined)} />
    </>
  );
}
