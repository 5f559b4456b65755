/**
 * 门锁明细 / Doors of a stay (GET /iot/v1/stay/detail?id=, refreshed every 5 s while open):
 * one row per guest x lock with the lock (name and IMEI, linking to its page), the lock user's and the
 * password's sync states in the platform's words (正常 / 添加中 / 添加失败 ..., credential
 * syncStates; 已删除 once the lock confirmed a delete), the guest's card's when any guest holds one, whether the stay released the door, and for a
 * door whose user or password failed 重试 / Retry (StayDoorRetry).
 */
import { stayEndpoints, type StayDetail, type SyncState } from '@iot/contract';
import { Badge, Modal, Space, Table, type TableColumnsType, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/useApiQuery';
import { LockLink } from '../../components/LockLink';
import { syncColor } from '../../components/credential/SyncStateBadge';
import { StayDoorRetry } from './StayDoorRetry';

type Door = StayDetail['doors'][number];
const REFETCH_MS = 5000;

/** A door's sync state as a Badge (data-sync: the raw state, for tests). */
function DoorState({ state }: { state: Door['userState'] }) {
  const { t } = useTranslation(['credential', 'stay']);
  if (state === null) return <>—</>;
  return (
    <span className="stay-door-state" data-sync={state}>
      {state === 'deleted' ? <Badge status="default" text={t('stay:doorDeleted')} /> : <Badge status={syncColor(state as SyncState)} text={t(`credential:syncStates.${state}`)} />}
    </span>
  );
}

/** The dialog for stay `id` (closed when undefined). */
export function StayDoorsModal({ id, onClose }: { id?: number; onClose(): void }) {
  const { t } = useTranslation('stay');
  const { data, isFetching } = useApiQuery(stayEndpoints.detail, { id: id as number }, { enabled: id !== undefined, refetchInterval: REFETCH_MS });
  const guestName = new Map(data?.guests.map((g) => [g.id, `${g.name} ${g.mobile}`]));
  const withCards = data?.guests.some((g) => g.cardNumber !== null) || data?.doors.some((d) => d.cardCredentialId !== null);
  const columns: TableColumnsType<Door> = [
    { title: t('guests'), key: 'guest', render: (_, d) => guestName.get(d.guestId) ?? `#${d.guestId}` },
    { title: t('doorLock'), key: 'lock', render: (_, d) => <Space orientation="vertical" size={0}><span>{d.lockName}</span><LockLink imei={d.imei} /></Space> },
    { title: t('doorUser'), key: 'user', width: 130, render: (_, d) => <DoorState state={d.userState} /> },
    { title: t('doorPassword'), key: 'password', width: 130, render: (_, d) => <DoorState state={d.credentialState} /> },
    ...(withCards ? [{ title: t('doorCard'), key: 'card', width: 130, render: (_: unknown, d: Door) => <DoorState state={d.cardState} /> }] : []),
    { title: t('doorReleased'), key: 'released', width: 100, render: (_, d) => (d.released ? <Tag>{t('doorReleasedYes')}</Tag> : <Tag color="green">{t('doorHeld')}</Tag>) },
    { title: t('doorAction'), key: 'action', width: 80, render: (_, d) => <StayDoorRetry door={d} /> },
  ];
  return (
    <Modal open={id !== undefined} title={t('doorsTitle')} onCancel={onClose} footer={null} width={withCards ? 940 : 820} className="stay-doors-modal" destroyOnHidden>
      <Table<Door> rowKey={(d) => `${d.guestId}:${d.lockId}:${d.lockUserId ?? ''}`} size="small" columns={columns} dataSource={data?.doors ?? []}
        loading={isFetching && !data} pagination={false} locale={{ emptyText: t('doorsEmpty') }} />
    </Modal>
  );
}
