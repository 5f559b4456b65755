/** 设备信息: who the lock is — identity, type, location, groups, firmware, registry state — with the page's actions. */
import { formatVersion, type LockInformation } from '@iot/contract';
import { Card, Descriptions, Space, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatTime } from '../../components/logColumns';
import { ServiceEndTag } from '../../components/ServiceEndTag';
import { InformationActions } from './InformationActions';

const STATE_COLORS = { active: 'green', disabled: 'orange', decommissioned: 'default' } as const;
const dash = (value: string) => value || '—';

/** The identity card; `extra`: shown in the card's header (the lock picker). */
export function IdentityCard({ info, extra }: { info: LockInformation; extra?: ReactNode }) {
  const { t } = useTranslation(['information', 'lock']);
  const { lock, type, groups } = info;
  const { building, floor, room } = lock.location;
  return (
    <Card
      size="small" className="information-identity" extra={extra}
      title={<Space><span className="information-title">{lock.name}</span><Tag color={STATE_COLORS[lock.state]}>{t(`lock:states.${lock.state}`)}</Tag></Space>}
    >
      <Descriptions size="small" column={{ xs: 1, md: 2, xl: 4 }}>
        <Descriptions.Item label="IMEI"><span className="information-imei">{lock.imei}</span></Descriptions.Item>
        <Descriptions.Item label={t('model')}>{lock.model} · {lock.vendor}</Descriptions.Item>
        <Descriptions.Item label={t('connectivity')}>{type ? t(`connectivities.${type.connectivity}`) : t('unknownType')}</Descriptions.Item>
        <Descriptions.Item label={t('firmware')}>{dash(formatVersion(lock.firmwareVersion))}{type?.firmwareFamily ? ` (${type.firmwareFamily})` : ''}</Descriptions.Item>
        <Descriptions.Item label={t('building')}>{dash(building)}</Descriptions.Item>
        <Descriptions.Item label={t('floor')}>{dash(floor)}</Descriptions.Item>
        <Descriptions.Item label={t('room')}>{dash(room)}</Descriptions.Item>
        <Descriptions.Item label={t('groups')}>
          <span className="information-groups">
            {groups.length === 0 ? '—' : groups.map((group) => (
              <Tag key={group.id} color="blue"><Link to={`/lockInfo?groupId=${group.id}`}>{group.name}</Link></Tag>
            ))}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label="ICCID">{dash(lock.iccid)}</Descriptions.Item>
        <Descriptions.Item label={t('registeredAt')}>{formatTime(lock.createdAt)}</Descriptions.Item>
        <Descriptions.Item label={t('serviceEnd')}><ServiceEndTag value={lock.serviceEndAt} /></Descriptions.Item>
        <Descriptions.Item label={t('note')}>{dash(lock.note)}{lock.simulated ? <Tag style={{ marginLeft: 8 }}>{t('simulated')}</Tag> : null}</Descriptions.Item>
      </Descriptions>
      <InformationActions info={info} />
    </Card>
  );
}
