/**
 * The lock of a credential page, one filter of its ServerTable like the others: the lock picker in the
 * search form (`lockId`, applied as soon as it is picked, kept in the URL; none: every lock, with a lock
 * column in the table), the picked lock read back from the URL, and its capacity (used / free slots of
 * its model, GET /iot/v1/lockDevice/capacity, live) shown above the table.
 */
import { credentialEndpoints, type CapacityTable } from '@iot/contract';
import { Form, Progress, Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useApiQuery } from '../../api/useApiQuery';
import { LockSelect } from '../LockSelect';
import { SYNC_REFETCH_MS } from './shared';

/** The lock filter (form field `lockId`; give ServerTable `instant={LOCK_FIELD}` so a pick applies at once). */
export function LockFilterItem() {
  const { t } = useTranslation('credential');
  return (
    <Form.Item htmlFor="credential-lock" name="lockId" label={t('lock')}>
      <LockSelect byId id="credential-lock" />
    </Form.Item>
  );
}

/** Fields of the credential lists applied as soon as they change. */
export const LOCK_FIELD = ['lockId'];

/** The lock picked on the page (`?lockId=` in the URL), or undefined for every lock. */
export function usePickedLock(): number | undefined {
  const [params] = useSearchParams();
  const lockId = Number(params.get('lockId'));
  return Number.isInteger(lockId) && lockId > 0 ? lockId : undefined;
}

/** URL query -> form values of a credential list (the lock id as a number). */
export function credentialFormValues(query: Record<string, string>): Record<string, unknown> {
  const { lockId, ...rest } = query;
  return { ...rest, lockId: lockId ? Number(lockId) : undefined };
}

/** The picked lock's capacity of `tables` (nothing when no lock is picked): ServerTable's header. */
export function LockCapacity({ lockId, tables }: { lockId: number | undefined; tables: readonly CapacityTable[] }) {
  if (lockId === undefined) return null;
  return <div style={{ marginBottom: 12 }}><Capacity lockId={lockId} tables={tables} /></div>;
}

/** Used / capacity of some tables of one lock. */
function Capacity({ lockId, tables }: { lockId: number; tables: readonly CapacityTable[] }) {
  const { t } = useTranslation('credential');
  const { data } = useApiQuery(credentialEndpoints.capacity, { lockId }, { refetchInterval: SYNC_REFETCH_MS });
  if (!data) return null;
  return (
    <Space size="large" className="credential-capacity">
      {tables.map((table) => {
        const use = data[table];
        return (
          <Tooltip key={table} title={t('capacity', { used: use.used, total: use.capacity, free: use.free })}>
            <Space size="small">
              <span>{t('capacityOf', { table: t(`tables.${table}`), used: use.used, capacity: use.capacity })}</span>
              <Progress aria-label={t(`tables.${table}`)} style={{ width: 80, margin: 0 }} size="small" percent={Math.round((use.used / Math.max(use.capacity, 1)) * 100)} showInfo={false} />
            </Space>
          </Tooltip>
        );
      })}
      <Typography.Text type="secondary">{data.model}</Typography.Text>
    </Space>
  );
}
