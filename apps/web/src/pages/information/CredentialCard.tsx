/** 设备信息: credential slots used per table on the lock, and the rows where cloud and lock disagree (drift). */
import type { LockInformation } from '@iot/contract';
import { Card, Progress, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';

type Row = LockInformation['credentials'][number];

/** The credential-use card. */
export function CredentialCard({ rows }: { rows: Row[] }) {
  const { t } = useTranslation('information');
  return (
    <Card size="small" title={t('credentials')} style={{ height: '100%' }}>
      <Table<Row>
        rowKey="table" size="small" pagination={false} dataSource={rows} className="information-credentials"
        columns={[
          { title: t('table'), dataIndex: 'table', render: (table: Row['table']) => t(`tables.${table}`) },
          {
            title: t('slots'), key: 'slots',
            render: (_, row) => (
              <span title={`${row.used} / ${row.capacity}`}>
                <Progress percent={row.capacity ? Math.round((row.used / row.capacity) * 100) : 0} size="small" format={() => `${row.used} / ${row.capacity}`} style={{ width: 160, margin: 0 }} />
              </span>
            ),
          },
          {
            title: t('drift'), key: 'drift',
            render: (_, row) => (row.syncing === 0 && row.failed === 0 ? <Tag color="success">{t('inSync')}</Tag> : (
              <>
                {row.syncing > 0 && <Tag color="processing">{t('syncing', { count: row.syncing })}</Tag>}
                {row.failed > 0 && <Tag color="error">{t('failed', { count: row.failed })}</Tag>}
              </>
            )),
          },
        ]}
      />
    </Card>
  );
}
