/**
 * "Who can open this door at time T" (GET /iot/v1/lockDevice/whoCanOpen): pick a lock and a time (default
 * now); lists every credential in sync valid then, with its holder.
 */
import { credentialEndpoints, type CredentialRecord } from '@iot/contract';
import { DatePicker, Drawer, Empty, Space, Table, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/useApiQuery';
import { DASH } from '../../components/logColumns';
import { LockSelect } from '../../components/LockSelect';
import { holderColumns } from './columns';
import { MINUTE_FORMAT, validityText } from './shared';
import { fromPicker, toPicker } from '../../app/timeZone';

/** The drawer; `lockId` preselects a lock. */
export function WhoCanOpenDrawer({ open, lockId, onClose }: { open: boolean; lockId?: number; onClose(): void }) {
  const { t } = useTranslation('credential');
  const [picked, setPicked] = useState<number>();
  const [at, setAt] = useState<Dayjs>(() => toPicker());
  const chosen = picked ?? lockId;
  const { data } = useApiQuery(credentialEndpoints.whoCanOpen, { lockId: chosen, at: fromPicker(at.second(0)).format() }, { enabled: open && chosen !== undefined });
  const columns = useMemo<TableColumnsType<CredentialRecord>>(() => [
    { title: t('kind'), dataIndex: 'kind', render: (k: CredentialRecord['kind']) => t(`kinds.${k}`) },
    { title: t('slot'), dataIndex: 'slot', render: (v: number | null) => v ?? DASH },
    ...holderColumns(t),
    { title: t('cardNumber'), dataIndex: 'cardNumber', render: (v: string | null) => v ?? DASH },
    { title: t('validity'), key: 'validity', render: (_: unknown, r) => validityText(t, r.validFrom, r.validTo) },
  ], [t]);
  return (
    <Drawer open={open} onClose={onClose} size="large" title={t('whoCanOpenTitle')} className="who-can-open" destroyOnHidden>
      <Space wrap style={{ marginBottom: 16 }}>
        <LockSelect byId id="who-lock" value={chosen} onChange={setPicked} />
        <DatePicker showTime={{ format: 'HH:mm' }} format={MINUTE_FORMAT} value={at} allowClear={false} onChange={(value) => value && setAt(value)} />
      </Space>
      {chosen === undefined ? <Empty description={t('pickLock')} /> : (
        <Table<CredentialRecord> rowKey="id" size="small" columns={columns} dataSource={data?.records ?? []} pagination={false}
          locale={{ emptyText: <Empty description={t('noCredentials')} /> }} scroll={{ x: 'max-content' }} />
      )}
    </Drawer>
  );
}
