/**
 * 设备信息: remote unlock (GET/POST /iot/v1/lockDevice/remoteUnlock). An always-online lock
 * offers it to holders of LOCK_REMOTE_UNLOCK with a required reason; a sleeping NB-IoT lock says why it
 * does not. A high-security door's requests wait for a second operator (LOCK_REMOTE_UNLOCK_APPROVE),
 * who approves here within 10 minutes and may mark the door high-security. Lists the latest requests.
 */
import { protocol, type RemoteUnlockRecord, remoteUnlockEndpoints as E } from '@iot/contract';
import { Alert, Button, Card, Input, Space, Switch, Table, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';
import { useAllowed, useUsername } from '../../hooks/useSession';
import { DASH, formatTime } from '../../components/logColumns';

/** Polling of the card, ms: fast while a request waits for approval or its command is under way (the lock answers within seconds). */
const PENDING_REFETCH_MS = 1500;
const REFETCH_MS = 5000;
const FINAL: ReadonlySet<string> = new Set(protocol.FINAL_COMMAND_STATES);
const pending = (r: RemoteUnlockRecord) => r.state === 'awaitingApproval' || (r.state === 'sent' && !FINAL.has(r.commandState ?? 'QUEUED'));

/** The remote-unlock card of lock `lockId`. */
export function RemoteUnlockCard({ lockId }: { lockId: number }) {
  const { t } = useTranslation('information');
  const mayAsk = useAllowed('LOCK_REMOTE_UNLOCK');
  const mayApprove = useAllowed('LOCK_REMOTE_UNLOCK_APPROVE');
  const me = useUsername();
  const [reason, setReason] = useState('');
  const [fast, setFast] = useState(false);
  const { data } = useApiQuery(E.overview, { lockId }, { refetchInterval: fast ? PENDING_REFETCH_MS : REFETCH_MS });
  const busy = data?.requests.some(pending) ?? false;
  useEffect(() => setFast(busy), [busy]);
  const invalidate = [E.overview];
  const ask = useApiMutation({ mutationFn: () => call(E.request, { body: { lockId, reason } }), success: t('remoteUnlockAsked'), invalidate, onSuccess: () => setReason('') });
  const approve = useApiMutation({ mutationFn: (id: number) => call(E.approve, { body: { id } }), success: t('remoteUnlockApproved'), invalidate });
  const mark = useApiMutation({ mutationFn: (highSecurity: boolean) => call(E.highSecurity, { body: { lockId, highSecurity } }), success: t('remoteUnlockSaved'), invalidate });
  if (!data) return null;
  const state = (r: RemoteUnlockRecord) => (r.state === 'sent' && r.commandState ? t(`command:states.${r.commandState}`) : t(`remoteUnlockStates.${r.state}`));
  return (
    <Card size="small" title={t('remoteUnlock')} className="information-remote-unlock"
      extra={mayApprove && data.offered
        ? <Space><span>{t('highSecurity')}</span><Switch size="small" checked={data.highSecurity} loading={mark.isPending} onChange={(on) => void mark.run(on)} /></Space>
        : data.highSecurity ? <Tag color="gold">{t('highSecurity')}</Tag> : undefined}>
      {!data.offered && <Alert type="info" showIcon message={t('remoteUnlockSleeping')} />}
      {data.offered && mayAsk && (
        <Space.Compact style={{ width: '100%', maxWidth: 560, marginBottom: 12 }}>
          <Input value={reason} maxLength={200} placeholder={t('remoteUnlockReason')} onChange={(event) => setReason(event.target.value)} className="remote-unlock-reason" />
          <Button type="primary" danger disabled={reason.trim().length < 2} loading={ask.isPending} onClick={() => void ask.run()}>
            {data.highSecurity ? t('remoteUnlockAskApproval') : t('remoteUnlockNow')}
          </Button>
        </Space.Compact>
      )}
      {data.offered && (
        <Table<RemoteUnlockRecord> rowKey="id" size="small" pagination={false} dataSource={data.requests} scroll={{ x: 'max-content' }}
          columns={[
            { title: t('remoteUnlockRequestedAt'), dataIndex: 'requestedAt', render: (time: string) => formatTime(time) },
            { title: t('remoteUnlockRequestedBy'), dataIndex: 'requestedBy' },
            { title: t('remoteUnlockReasonColumn'), dataIndex: 'reason' },
            { title: t('remoteUnlockApprovedBy'), dataIndex: 'approvedBy', render: (name: string | null) => name ?? DASH },
            { title: t('remoteUnlockState'), key: 'state', render: (_, r) => <span data-state={r.state === 'sent' ? r.commandState : r.state}>{state(r)}</span> },
            { title: '', key: 'approve', render: (_, r) => (mayApprove && r.state === 'awaitingApproval' && r.requestedBy !== me
              ? <Button size="small" onClick={() => void approve.run(r.id)}>{t('remoteUnlockApprove')}</Button> : null) },
          ]}
        />
      )}
    </Card>
  );
}
