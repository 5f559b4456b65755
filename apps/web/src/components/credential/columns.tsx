/** Column pieces of the credential lists: lock, holder, validity, sync state (credential namespace). */
import { LockLink } from '../LockLink';
import type { CredentialRecord, LockUserRecord } from '@iot/contract';
import type { TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { DASH, formatTime } from '../logColumns';
import { validityText } from './shared';
import { type SyncFacts, SyncStateBadge } from './SyncStateBadge';

type Row = CredentialRecord | LockUserRecord;
/** Any row naming its lock (credentials, lock users, schedules). */
type LockRow = { imei: string; lockName: string; room: string };

/** Lock name · room (IMEI). */
export function lockColumn<R extends LockRow>(t: TFunction): TableColumnsType<R>[number] {
  return { title: t('lock'), key: 'lock', width: 200, ellipsis: false, render: (_: unknown, r: R) => <span><LockLink imei={r.imei}>{r.lockName}</LockLink> · {r.room}<br /><small><LockLink imei={r.imei} /></small></span> };
}

/** Holder (name, phone) and user slot of a credential. */
export function holderColumns(t: TFunction): TableColumnsType<CredentialRecord> {
  return [
    { title: t('holder'), key: 'holder', render: (_: unknown, r) => (r.holderName ? `${r.holderName}${r.holderPhone ? ` (${r.holderPhone})` : ''}` : DASH) },
    { title: t('userSlot'), dataIndex: 'userSlot', align: 'right', render: (v: number | null) => v ?? DASH },
  ];
}

/** Sync state as a badge, and why a failed one failed (wrapping, never cut). */
export function syncColumn<R extends SyncFacts>(t: TFunction): TableColumnsType<R>[number] {
  return { title: t('syncState'), dataIndex: 'syncState', width: 150, ellipsis: false, render: (_: unknown, row: R) => <SyncStateBadge row={row} /> };
}

/** Validity window and sync state. */
export function validityAndSync<R extends Row>(t: TFunction): TableColumnsType<R> {
  return [
    { title: t('validity'), key: 'validity', render: (_: unknown, r: R) => validityText(t, r.validFrom, r.validTo) },
    syncColumn<R>(t),
  ];
}

/** The columns a credential list ends with: who created it, when, and the row's actions. */
export function createdAndActions(t: TFunction, actions: (row: CredentialRecord) => ReactNode): TableColumnsType<CredentialRecord> {
  return [
    { title: t('createdBy'), dataIndex: 'createdBy' },
    { title: t('createdAt'), dataIndex: 'createdAt', render: formatTime, sorter: true },
    { title: t('actions'), key: 'actions', fixed: 'right', render: (_: unknown, row: CredentialRecord) => actions(row) },
  ];
}
