/**
 * 产品 RoomInquiry: the data centre's buildings, floors and rooms as a tree loaded level by
 * level (RoomTree), each room with its lock's live state; a search by IMEI, name or room; the chosen
 * lock (in the URL, `?imei=`) beside it with who can open it and links to its journal and credentials;
 * 今日未就绪 / Not ready today: today's stays whose doors are not ready (StayNotReadyDrawer).
 */
import { lockEndpoints } from '@iot/contract';
import { Badge, Card, Col, Flex, Input, List, Row } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useApiQuery } from '../../api/useApiQuery';
import { LIVE_BADGE } from './liveState';
import { RoomLockPanel } from './RoomLockPanel';
import { RoomTree } from './RoomTree';
import { StayNotReadyButton } from './StayNotReadyDrawer';

/** The room inquiry page. */
export default function RoomInquiryPage() {
  const { t } = useTranslation('lockFleet');
  const [params, setParams] = useSearchParams();
  const [keyword, setKeyword] = useState('');
  const imei = params.get('imei') ?? undefined;
  const pick = (next: string) => setParams({ imei: next });
  const { data: found } = useApiQuery(lockEndpoints.lockRoomList, { keyword, size: 20 }, { enabled: keyword !== '' });
  return (
    <Row gutter={16} className="room-inquiry">
      <Col span={10}>
        <Card size="small" className="room-tree-card">
          <Flex gap={8} className="room-search-bar">
            <Input.Search id="room-search" allowClear placeholder={t('searchPlaceholder')} enterButton onSearch={(value) => setKeyword(value.trim())} />
            <StayNotReadyButton onPick={pick} />
          </Flex>
          {keyword !== '' && (
            <List size="small" className="room-search-results" dataSource={found ?? []} locale={{ emptyText: t('noMatch') }}
              renderItem={(lock) => (
                <List.Item className={lock.imei === imei ? 'room-search-hit selected' : 'room-search-hit'} data-imei={lock.imei} onClick={() => pick(lock.imei)}>
                  <Badge status={LIVE_BADGE[lock.liveState]} text={`${lock.room || t('unplaced')} · ${lock.name} · ${lock.imei}`} />
                </List.Item>
              )} />
          )}
          <RoomTree selected={imei} onPick={pick} />
        </Card>
      </Col>
      <Col span={14}>
        <RoomLockPanel imei={imei} />
      </Col>
    </Row>
  );
}
