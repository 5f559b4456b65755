/**
 * The building -> floor -> room tree of 产品 (RoomInquiry), loaded level by level: buildings and floors
 * from GET /iot/v1/lockDevice/locationTree (with their locks counted by live state and alarms), the
 * rooms of a floor from GET /iot/v1/lockDevice/lockRoomList (each room's lock and live state), so a
 * 100,000-lock data centre sends only what is opened. Choosing a room's lock calls `onPick(imei)`.
 */
import { type LocationNode, lockEndpoints, type LockOption } from '@iot/contract';
import { Badge, Space, Tag, Tree, type TreeDataNode } from 'antd';
import { type Key, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiQuery } from '../../api/useApiQuery';
import { LIVE_BADGE } from './liveState';

/** At most this many locks of one floor are listed. */
const FLOOR_LOCKS = 200;
const SEP = '\u0000';

type Node = TreeDataNode & { children?: Node[] };

/** The tree; `selected`: the IMEI shown beside it. */
export function RoomTree({ selected, onPick }: { selected?: string; onPick(imei: string): void }) {
  const { t } = useTranslation('lockFleet');
  const { data: buildings } = useApiQuery(lockEndpoints.locationTree, {});
  const [tree, setTree] = useState<Node[]>([]);

  const title = (node: LocationNode, fallback: string) => (
    <Space size={6}>
      <span>{node.name || fallback}</span>
      <span className="room-tree-counts">{t('treeCounts', { locks: node.locks, online: node.online + node.asleep })}</span>
      {node.alarmed > 0 && <Tag color="red">{t('alarmed', { count: node.alarmed })}</Tag>}
    </Space>
  );
  const lockTitle = (lock: LockOption) => (
    <Space size={6} data-imei={lock.imei}>
      <Badge status={LIVE_BADGE[lock.liveState]} />
      <span>{lock.location.room || t('noRoom')}</span>
      <span className="room-tree-lock">{lock.name}</span>
      {lock.openAlarms > 0 && <Tag color="red">{t('alarms', { count: lock.openAlarms })}</Tag>}
    </Space>
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: titles follow the data and the language only
  useEffect(() => {
    setTree((buildings ?? []).map((node) => ({ key: `b${SEP}${node.name}`, title: title(node, t('unplaced')) })));
  }, [buildings, t]);

  const attach = (key: Key, children: Node[]) => setTree((nodes) => {
    const walk = (list: Node[]): Node[] => list.map((node) => (node.key === key ? { ...node, children } : node.children ? { ...node, children: walk(node.children) } : node));
    return walk(nodes);
  });

  const loadData = async (node: { key: Key }) => {
    const [level, building = '', floor] = String(node.key).split(SEP);
    if (level === 'b') {
      const floors = await call(lockEndpoints.locationTree, { query: { building } });
      attach(node.key, floors.map((f) => ({ key: `f${SEP}${building}${SEP}${f.name}`, title: title(f, t('noFloor')) })));
    } else if (level === 'f') {
      const rooms = await call(lockEndpoints.lockRoomList, { query: { building, floor: floor ?? '', size: FLOOR_LOCKS } });
      attach(node.key, rooms.map((lock) => ({ key: `l${SEP}${lock.imei}`, title: lockTitle(lock), isLeaf: true })));
    }
  };

  return (
    <Tree<Node> className="room-tree" treeData={tree} loadData={loadData} blockNode showLine
      selectedKeys={selected ? [`l${SEP}${selected}`] : []}
      onSelect={(_keys, { node }) => { const [level, imei] = String(node.key).split(SEP); if (level === 'l' && imei) onPick(imei); }} />
  );
}
