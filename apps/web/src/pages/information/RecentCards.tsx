/** 设备信息: the lock's latest alarms, unlock records and uplinks, each with a link to its full log filtered to the lock. */
import { alertDetailText, type AlertRecord, type Authority, type Language, type LockInformation, type OpenRecordRecord, type UplinkLogRecord } from '@iot/contract';
import { Card, Col, Row, Table, Tag, type TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAllowed } from '../../hooks/useSession';
import { formatTime } from '../../components/logColumns';
import { SEVERITY_COLORS } from '../../components/alertColumns';

/** One card: a small table and, for holders of the log's key, a link to the full log. */
function Recent<R extends { id: number }>(props: { title: string; log: string; authority: Authority; rows: R[]; columns: TableColumnsType<R>; imei: string }) {
  const { t } = useTranslation('information');
  const allowed = useAllowed(props.authority);
  const link: ReactNode = allowed ? <Link to={`/${props.log}?imei=${props.imei}`}>{t('fullLog')}</Link> : undefined;
  return (
    <Card size="small" title={props.title} extra={link} style={{ height: '100%' }} className={`information-recent-${props.log}`}>
      <Table<R> rowKey="id" size="small" pagination={false} dataSource={props.rows} columns={props.columns} locale={{ emptyText: t('none') }} />
    </Card>
  );
}

/** The three cards side by side on wide screens. */
export function RecentCards({ info }: { info: LockInformation }) {
  const { t, i18n } = useTranslation('deviceLog');
  const { t: ti } = useTranslation('information');
  const imei = info.lock.imei;
  const alarms: TableColumnsType<AlertRecord> = [
    { title: t('lastAt'), dataIndex: 'lastAt', render: formatTime },
    { title: t('kind'), dataIndex: 'kind', render: (kind: string, row) => <Tag color={SEVERITY_COLORS[row.severity]} title={alertDetailText(kind, row.detail, i18n.language as Language)}>{t(`kinds.${kind}`)}</Tag> },
    { title: t('state'), dataIndex: 'state', render: (state: string) => t(`states.${state}`) },
  ];
  const opens: TableColumnsType<OpenRecordRecord> = [
    { title: t('lockTime'), dataIndex: 'lockTime', render: formatTime },
    // A remote unlock names the operator who asked.
    { title: t('method'), dataIndex: 'method', render: (method: string, row) => (row.operator ? `${t(`methods.${method}`)} · ${row.operator}` : t(`methods.${method}`)) },
    { title: t('result'), dataIndex: 'success', render: (ok: boolean) => <Tag color={ok ? 'success' : 'error'}>{ok ? t('success') : t('failed')}</Tag> },
  ];
  const uplinks: TableColumnsType<UplinkLogRecord> = [
    { title: t('receivedAt'), dataIndex: 'receivedAt', render: formatTime },
    { title: t('type'), dataIndex: 'type', render: (type: string) => <Tag color="blue">{t(`uplinkTypes.${type}`)}</Tag> },
    { title: t('seq'), dataIndex: 'seq', align: 'right' },
  ];
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xxl={8}><Recent title={ti('alarms')} log="lockAlertLog" authority="LOCK_ALERT_LOG" rows={info.alarms} columns={alarms} imei={imei} /></Col>
      <Col xs={24} xxl={8}><Recent title={ti('openRecords')} log="lockOpenRecordLog" authority="LOCK_OPEN_RECORD_LOG" rows={info.openRecords} columns={opens} imei={imei} /></Col>
      <Col xs={24} xxl={8}><Recent title={ti('uplinks')} log="commandUpLog" authority="COMMAND_UP_LOG" rows={info.uplinks} columns={uplinks} imei={imei} /></Col>
    </Row>
  );
}
