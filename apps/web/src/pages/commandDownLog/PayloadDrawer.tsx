/**
 * The payload actually sent for a command, secrets masked: the ZIGUANG vendor route's message envelope
 * (GET /iot/v1/zg/logDownPara) and the ISP / NB platform route's transport envelope (MQTT topic, QoS,
 * bytes; GET /iot/v1/isp/logDownPara).
 */
import { commandEndpoints } from '@iot/contract';
import { Alert, Descriptions, Drawer, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/useApiQuery';
import { formatTime } from '../../components/logColumns';
import { StateBadge } from '../../components/CommandTags';

const pre = { background: '#f6f8fa', padding: 12, borderRadius: 6, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all' } as const;

/** Drawer for command `id` (closed when undefined). */
export function PayloadDrawer({ id, onClose }: { id: number | undefined; onClose: () => void }) {
  const { t } = useTranslation('command');
  return (
    <Drawer open={id !== undefined} onClose={onClose} size="large" title={t('payload')} destroyOnHidden>
      {id !== undefined && <PayloadBody id={id} />}
    </Drawer>
  );
}

/** Both views of command `id`. */
function PayloadBody({ id }: { id: number }) {
  const { t } = useTranslation('command');
  const vendor = useApiQuery(commandEndpoints.zgDownPara, { id });
  const isp = useApiQuery(commandEndpoints.ispDownPara, { id });
  return (
    <>
      {vendor.data && !vendor.data.sent && <Alert type="info" showIcon title={t('notSent')} style={{ marginBottom: 16 }} />}
      {vendor.data && (
        <section className="command-vendor-payload">
          <Typography.Title level={5}>{t('vendorRoute')}</Typography.Title>
          <pre style={pre}>{JSON.stringify(vendor.data.message, null, 2)}</pre>
        </section>
      )}
      {isp.data && (
        <section className="command-isp-payload">
          <Typography.Title level={5}>{t('ispRoute')}</Typography.Title>
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label={t('topic')}>{isp.data.topic}</Descriptions.Item>
            <Descriptions.Item label={t('qos')}>{isp.data.qos}</Descriptions.Item>
            <Descriptions.Item label={t('bytes')}>{isp.data.bytes}</Descriptions.Item>
            <Descriptions.Item label={t('state')}><StateBadge state={isp.data.state} /></Descriptions.Item>
            <Descriptions.Item label={t('attempts')}>{isp.data.attempts}</Descriptions.Item>
            <Descriptions.Item label={t('sentAt')}>{formatTime(isp.data.sentAt)}</Descriptions.Item>
          </Descriptions>
          <pre style={pre}>{isp.data.payload}</pre>
        </section>
      )}
    </>
  );
}
