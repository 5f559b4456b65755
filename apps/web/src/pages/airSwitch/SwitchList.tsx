/** The air switches as cards (polled every 3 s): online state, last report and the circuits' live readings. */
import { type AirSwitchRecord, airSwitchEndpoints } from '@iot/contract';
import { Badge, Button, Card, Empty, Input, Pagination, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/useApiQuery';
import { CircuitTable } from './CircuitTable';
import { formatTime } from './format';

/** A card per switch; `onDetail` opens a switch's drawer. */
export function SwitchList({ onDetail }: { onDetail(id: number): void }) {
  const { t } = useTranslation('airSwitch');
  const [keyword, setKeyword] = useState('');
  const [current, setCurrent] = useState(1);
  const { data } = useApiQuery(airSwitchEndpoints.list, { current, size: 5, keyword: keyword || undefined }, { refetchInterval: 3000, keepPrevious: true });
  const title = (s: AirSwitchRecord) => (
    <Space>
      <span className="air-switch-name">{s.name}</span>
      <Typography.Text type="secondary">{s.serial} · {s.model}{s.location ? ` · ${s.location}` : ''}</Typography.Text>
      <Badge status={s.online ? 'success' : 'default'} text={s.online ? t('online') : t('offline')} />
    </Space>
  );
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Input.Search id="air-switch-keyword" allowClear placeholder={t('keywordPlaceholder')} style={{ width: 280 }}
        onSearch={(value) => { setKeyword(value.trim()); setCurrent(1); }} />
      {data?.records.length === 0 && <Empty />}
      {data?.records.map((s) => (
        <Card key={s.id} size="small" title={title(s)} className="air-switch-card" data-serial={s.serial}
          extra={<Space><Typography.Text type="secondary">{t('lastUplink')}: {formatTime(s.lastUplinkAt)}</Typography.Text>
            <Button size="small" onClick={() => onDetail(s.id)}>{t('detail')}</Button></Space>}>
          <CircuitTable airSwitch={s} />
        </Card>
      ))}
      <Pagination align="end" current={current} pageSize={5} total={data?.total ?? 0} onChange={setCurrent} hideOnSinglePage />
    </Space>
  );
}
