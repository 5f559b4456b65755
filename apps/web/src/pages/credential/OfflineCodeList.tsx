/**
 * The issued offline codes (GET /iot/v1/offlineCode/list): who issued which kind of code on
 * which lock for whom, and its validity; never the code itself. Of the page's lock when one is picked.
 */
import { offlineCodeEndpoints, type OfflineCodeRecord } from '@iot/contract';
import { Drawer, Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/useApiQuery';
import { formatTime } from '../../lib/timeZone';
import { MINUTE_FORMAT, validityText } from '../../components/credential/shared';

/** The drawer (shown while `open`). */
export function OfflineCodeList({ open, lockId, onClose }: { open: boolean; lockId?: number; onClose(): void }) {
  const { t } = useTranslation(['offlineCode', 'credential']);
  const { data, isFetching } = useApiQuery(offlineCodeEndpoints.list, lockId === undefined ? {} : { lockId }, { enabled: open });
  const columns: TableColumnsType<OfflineCodeRecord> = [
    { title: t('lock'), dataIndex: 'lockName' },
    { title: t('kind'), dataIndex: 'kind', render: (kind: OfflineCodeRecord['kind']) => t(`kindShort.${kind}`) },
    { title: t('recipient'), key: 'recipient', render: (_, row) => <>{row.recipientName}<div>{row.recipientMobile}</div></> },
    { title: t('validity'), key: 'validity', render: (_, row) => (
      <>{validityText(t, row.validFrom, row.validTo)}{row.fromHour !== null && <div>{t('dailyHours', { from: row.fromHour, to: row.toHour })}</div>}</>
    ) },
    { title: t('issuedBy'), key: 'issued', render: (_, row) => <>{row.issuedBy}<div>{formatTime(row.issuedAt, MINUTE_FORMAT)}</div></> },
  ];
  return (
    <Drawer open={open} title={t('listTitle')} onClose={onClose} size={960} className="offline-code-list">
      <Table<OfflineCodeRecord> rowKey="id" size="small" columns={columns} dataSource={data ?? []} loading={isFetching} pagination={{ pageSize: 20 }}
        locale={{ emptyText: t('empty') }} scroll={{ x: 'max-content' }} />
    </Drawer>
  );
}
