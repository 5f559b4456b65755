/**
 * 套餐: service-period warnings (locks ending within 30 / 7 / 1 days or ended), the
 * packages as cards with what they buy, buying one (BuyModal), and for platform administrators (packages
 * are shared by every data centre) adding and editing packages (ProductModal).
 */
import { PlusOutlined } from '@ant-design/icons';
import { type ProductRecord, billingEndpoints } from '@iot/contract';
import { Alert, Button, Card, Col, Row, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/useApiQuery';
import { useInvalidate } from '../../api/useInvalidate';
import { useMayCall } from '../../hooks/mayCall';
import { useLanguage } from '../../hooks/useSession';
import { LockLink } from '../../components/LockLink';
import { ServiceEndTag } from '../../components/ServiceEndTag';
import { BuyModal } from './BuyModal';
import { yuan } from './money';
import { ProductModal } from './ProductModal';

/** The packages page. */
export default function RenewPage() {
  const { t } = useTranslation('billing');
  const language = useLanguage();
  // Packages are shared by every data centre: only platform administrators edit them.
  const manage = useMayCall(billingEndpoints.productSave);
  const { data: products = [] } = useApiQuery(billingEndpoints.productList);
  const { data: summary } = useApiQuery(billingEndpoints.serviceSummary);
  const [buying, setBuying] = useState<ProductRecord>();
  const [editing, setEditing] = useState<ProductRecord | null>();
  const refresh = useInvalidate(billingEndpoints.productList);
  const shown = products.filter((product) => product.enabled || manage);
  const warn = summary && summary.within30 + summary.expired > 0;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {warn && (
        <Alert
          id="service-warning" type={summary.expired + summary.within7 > 0 ? 'error' : 'warning'} showIcon message={t('serviceWarning')}
          description={
            <Space direction="vertical" size={4}>
              <span>{t('serviceSummary', summary)}</span>
              <Space wrap>
                {summary.locks.slice(0, 12).map((lock) => (
                  <Space key={lock.id} size={4}><LockLink imei={lock.imei}>{lock.name}</LockLink><ServiceEndTag value={lock.serviceEndAt} /></Space>
                ))}
              </Space>
            </Space>
          }
        />
      )}
      {manage && <Button id="product-add" type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>{t('addPackage')}</Button>}
      <Row gutter={[16, 16]}>
        {shown.map((product) => (
          <Col key={product.id} xs={24} md={12} xl={8}>
            <Card
              className="product-card"
              title={language === 'zh-CN' ? product.nameZh : product.nameEn}
              extra={product.enabled ? undefined : <Tag>{t('disabled')}</Tag>}
              actions={[
                <Button key="buy" type="primary" disabled={!product.enabled} onClick={() => setBuying(product)}>{t('buy')}</Button>,
                ...(manage ? [<Button key="edit" onClick={() => setEditing(product)}>{t('edit')}</Button>] : []),
              ]}
            >
              <Typography.Title level={2} style={{ marginTop: 0 }}>{yuan(product.priceFen)}</Typography.Title>
              <Typography.Paragraph strong>{t('covers', { locks: product.lockCount, months: product.months })}</Typography.Paragraph>
              <Typography.Paragraph type="secondary">{language === 'zh-CN' ? product.descriptionZh : product.descriptionEn}</Typography.Paragraph>
            </Card>
          </Col>
        ))}
      </Row>
      <BuyModal product={buying} onClose={() => setBuying(undefined)} />
      <ProductModal product={editing} onClose={() => setEditing(undefined)} onDone={() => { setEditing(undefined); void refresh(); }} />
    </Space>
  );
}
