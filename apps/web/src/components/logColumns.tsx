/** Column pieces shared by the log pages: time cells and the lock columns (IMEI, name, room), linked to the lock. */
import type { TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { LockLink } from './LockLink';
import { formatTime as formatZoned } from '../lib/timeZone';

export const DASH = '—';

/** ISO 8601 -> `YYYY-MM-DD HH:mm:ss` in the data centre's time zone (— when empty; lib/timeZone.ts). */
export const formatTime = (value: string | null | undefined): string => formatZoned(value);

/** IMEI, lock name and room columns, in the deviceLog namespace's language; IMEI and name link to the lock. */
export function lockRefColumns<R extends { imei: string; lockName: string; room: string }>(t: TFunction): TableColumnsType<R> {
  return [
    { title: t('imei'), dataIndex: 'imei', key: 'imei', render: (imei: string) => <LockLink imei={imei} /> },
    { title: t('lock'), dataIndex: 'lockName', key: 'lockName', render: (name: string, row) => <LockLink imei={row.imei}>{name || DASH}</LockLink> },
    { title: t('room'), dataIndex: 'room', key: 'room' },
  ];
}
