/** Column pieces of the credential lists: lock, holder, validity, sync state (credential namespace). */
import type { CredentialRecord, LockUserRecord } from '@iot/contract';
import type { TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { DASH } from '../../components/logColumns';
import { validityText } from './shared';
import { SyncStateTag } from './SyncStateTag';

type Row = CredentialRecord | LockUserRecord;

/** Lock name · room (IMEI). */
export function lockColumn<R extends Row>(t: TFunction): TableColumnsType<R>[number] {
  return { title: t('lock'), key: 'lock', render: (_: unknown, r: R) => <span>{r.lockName} · {r.room}<br /><small>{r.imei}</small></span> };
}

/** Holder (name, phone) and user slot of a credential. */
export function holderColumns(t: TFunction): TableColumnsType<CredentialRecord> {
  return [
    { title: t('holder'), key: 'holder', render: (_: unknown, r) => (r.holderName ? `${r.holderName}${r.holderPhone ? ` (${r.holderPhone})` : ''}` : DASH) },
    { title: t('userSlot'), dataIndex: 'userSlot', align: 'right', render: (v: number | null) => v ?? DASH },
  ];
}

/** Validity window and sync state. */
export function validityAndSync<R extends Row>(t: TFunction): TableColumnsType<R> {
  return [
    { title: t('validity'), key: 'validity', render: (_: unknown, r: R) => validityText(t, r.validFrom, r.validTo) },
    { title: t('syncState'), dataIndex: 'syncState', render: (s: Row['syncState']) => <SyncStateTag state={s} /> },
  ];
}
