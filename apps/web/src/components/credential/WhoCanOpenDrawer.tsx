/**
 * "Who can open this door at time T" (GET /iot/v1/lockDevice/whoCanOpen): pick a lock and a time (default
 * now); lists every credential in sync that opens then, with its holder, and the others
 * with why not (outside the schedule, holiday operating mode, user type, window), plus the holiday
 * operating mode in force.
 */
import { ACCESS_REFUSAL_LABELS, type AccessRefusal, credentialEndpoints, type CredentialRecord, OPERATING_MODE_LABELS } from '@iot/contract';
import { Alert, DatePicker, Drawer, Empty, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/useApiQuery';
import { useLanguage } from '../../hooks/useSession';
import { DASH } from '../logColumns';
import { LockSelect } from '../LockSelect';
import { holderColumns } from './columns';
import { MINUTE_FORMAT, validityText } from './shared';
import { fromPicker, toPicker } from '../../lib/timeZone';

type Refused = { record: CredentialRecord; reason: AccessRefusal };

/** The drawer; `lockId` preselects a lock. */
export function WhoCanOpenDrawer({ open, lockId, onClose }: { open: boolean; lockId?: number; onClose(): void }) {
  const { t } = useTranslation('credential');
  const language = useLanguage();
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
  const refusedColumns = useMemo<TableColumnsType<Refused>>(() => [
    { title: t('kind'), key: 'kind', render: (_: unknown, r) => t(`kinds.${r.record.kind}`) },
    { title: t('slot'), key: 'slot', render: (_: unknown, r) => r.record.slot ?? DASH },
    { title: t('holder'), key: 'holder', render: (_: unknown, r) => r.record.holderName ?? DASH },
    { title: t('whyNot'), key: 'reason', render: (_: unknown, r) => <Tag color="orange" className="refusal-reason">{ACCESS_REFUSAL_LABELS[r.reason][language]}</Tag> },
  ], [t, language]);
  return (
    <Drawer open={open} onClose={onClose} size="large" title={t('whoCanOpenTitle')} className="who-can-open" destroyOnHidden>
      <Space wrap style={{ marginBottom: 16 }}>
        <LockSelect byId id="who-lock" value={chosen} onChange={setPicked} />
        <DatePicker showTime={{ format: 'HH:mm' }} format={MINUTE_FORMAT} value={at} allowClear={false} onChange={(value) => value && setAt(value)} />
      </Space>
      {chosen === undefined ? <Empty description={t('pickLock')} /> : (
        <>
          {data && data.operatingMode !== 'normal' && (
            <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('operatingModeNow', { mode: OPERATING_MODE_LABELS[data.operatingMode][language] })} />
          )}
          <Table<CredentialRecord> rowKey="id" size="small" columns={columns} dataSource={data?.records ?? []} pagination={false}
            locale={{ emptyText: <Empty description={t('noCredentials')} /> }} scroll={{ x: 'max-content' }} />
          {(data?.refused.length ?? 0) > 0 && (
            <>
              <Typography.Title level={5} style={{ marginTop: 20 }}>{t('cannotOpen')}</Typography.Title>
              <Table<Refused> rowKey={(r) => r.record.id} size="small" columns={refusedColumns} dataSource={data?.refused ?? []} pagination={false}
                scroll={{ x: 'max-content' }} className="who-cannot-open" />
            </>
          )}
        </>
      )}
    </Drawer>
  );
}
