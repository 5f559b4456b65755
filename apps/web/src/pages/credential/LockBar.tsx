/**
 * The head of a credential page: the lock picker (none: every lock, with a lock column in the table),
 * the chosen lock's capacity (used / free slots of its model, GET /iot/v1/lockDevice/capacity, live)
 * and the page's buttons.
 */
import { credentialEndpoints, type CapacityTable } from '@iot/contract';
import { Progress, Space, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/useApiQuery';
import { LockSelect } from '../../components/LockSelect';
import { SYNC_REFETCH_MS } from './shared';

export interface LockBarProps {
  lockId: number | undefined;
  onLockChange(lockId: number | undefined): void;
  /** Capacity tables shown for the chosen lock. */
  tables?: readonly CapacityTable[];
  children?: ReactNode;
}

/** Lock picker + capacity + actions, in a card above the list. */
export function LockBar({ lockId, onLockChange, tables = [], children }: LockBarProps) {
  const { t } = useTranslation('credential');
  return (
    <div className="page-card credential-lock-bar" style={{ marginBottom: 16, display: 'flex', gap: 16, alignItems: 'center', flexWrap: 'wrap' }}>
      <Typography.Text strong>{t('lock')}</Typography.Text>
      <LockSelect byId id="credential-lock" value={lockId} onChange={onLockChange} />
      {lockId !== undefined && tables.length > 0 && <Capacity lockId={lockId} tables={tables} />}
      <Space style={{ marginInlineStart: 'auto' }}>{children}</Space>
    </div>
  );
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
              <Progress style={{ width: 80, margin: 0 }} size="small" percent={Math.round((use.used / Math.max(use.capacity, 1)) * 100)} showInfo={false} />
            </Space>
          </Tooltip>
        );
      })}
      <Typography.Text type="secondary">{data.model}</Typography.Text>
    </Space>
  );
}
