/**
 * 设备信息: the lock's unfinished work orders (GET /iot/v1/workOrder/list?imei=), with a link
 * to 门锁警告's work-order tab filtered by the lock. Shown to holders of the alert page's authority.
 */
import { WORK_ORDER_LABELS, type WorkOrderRecord, workOrderEndpoints as api } from '@iot/contract';
import { Card, Empty, List, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiQuery } from '../../api/useApiQuery';
import { useMayCall } from '../../hooks/mayCall';
import { useLanguage } from '../../hooks/useSession';
import { formatTime } from '../../components/logColumns';

const REFETCH_MS = 10_000;
const open = (o: WorkOrderRecord) => o.state === 'OPEN' || o.state === 'IN_PROGRESS';

/** The work-order card of lock `imei`. */
export function WorkOrderCard({ imei }: { imei: string }) {
  const { t } = useTranslation('workOrder');
  const language = useLanguage();
  const allowed = useMayCall(api.list);
  const { data } = useApiQuery(api.list, { imei, current: 1, size: 20 }, { refetchInterval: REFETCH_MS, enabled: allowed });
  if (!allowed || !data) return null;
  const orders = data.records.filter(open);
  return (
    <Card size="small" title={t('card')} className="information-work-orders" extra={<Link to={`/lockAlert?tab=workOrders&imei=${imei}`}>{t('viewAll')}</Link>}>
      {orders.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noOpen')} /> : (
        <List<WorkOrderRecord>
          size="small" dataSource={orders}
          renderItem={(o) => (
            <List.Item>
              <Space wrap>
                <span>#{o.id}</span>
                <span>{o.title}</span>
                <Tag>{WORK_ORDER_LABELS.kinds[o.kind][language]}</Tag>
                <Tag color={o.state === 'OPEN' ? 'red' : 'blue'}>{WORK_ORDER_LABELS.states[o.state][language]}</Tag>
                <span>{o.assigneeName ?? t('unassigned')}</span>
                <span>{formatTime(o.createdAt)}</span>
              </Space>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
