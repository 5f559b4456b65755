/**
 * Pieces the credential pages share: running an operation (success toast, list refresh; failures are
 * shown by the HTTP client), the validity cell, and the row actions every synced row offers (retry or
 * discard a failed operation, delete with confirmation).
 */
import { SYNC_STATES, type Endpoint, type SyncState } from '@iot/contract';
import { Button, Form, type FormInstance, Input, Popconfirm, Select, Space } from 'antd';
import type { TFunction } from 'i18next';
import { useCallback, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';
import { markFieldErrors } from '../../api/fieldErrors';
import { useApiMutation } from '../../api/useApiMutation';
import { DASH } from '../logColumns';
import { syncFailed } from './SyncStateBadge';
import { formatTime } from '../../lib/timeZone';

/** Live refresh of the sync states, ms (background, no overlay). */
export const SYNC_REFETCH_MS = 2000;
/** Minute precision of validity windows. */
export const MINUTE_FORMAT = 'YYYY-MM-DD HH:mm';

/** `from ~ to` to the minute; permanent when neither is set. */
export function validityText(t: TFunction, from: string | null, to: string | null): string {
  if (!from && !to) return t('permanentValidity');
  const show = (value: string | null) => (value ? formatTime(value, MINUTE_FORMAT) : DASH);
  return `${show(from)} ~ ${show(to)}`;
}

/** Server fields of the credential calls whose form field has another name (the validity window). */
const FORM_FIELDS = { 'body.validFrom': 'window', 'body.validTo': 'window' } as const;

/**
 * Runs an operation through the console's mutation hook: toasts `done` on success, then refetches
 * `endpoints`; resolves to the result or undefined (failures are shown by the HTTP client, and the
 * fields the server names are marked on `form` when given).
 */
export function useOperation(...endpoints: Endpoint[]) {
  const { run } = useApiMutation<{ run: () => Promise<unknown>; done: string; form?: FormInstance }, unknown>({
    mutationFn: (op) => op.run(),
    success: (_, op) => op.done,
    invalidate: endpoints,
    onError: (error, op) => { if (op.form && error instanceof ApiError) markFieldErrors(op.form, error, FORM_FIELDS); },
  });
  return useCallback(<T,>(op: () => Promise<T>, done: string, form?: FormInstance) => run({ run: op, done, form }) as Promise<T | undefined>, [run]);
}

interface SyncRow { id: number; syncState: SyncState }

export interface RowActionsProps<R extends SyncRow> {
  row: R;
  /** The retry / discard endpoints of the row's subject. */
  routes: { retry: Endpoint; discard: Endpoint };
  /** Deletes the row on its lock. */
  onDelete(row: R): Promise<unknown>;
  /** Endpoints to refetch after retry/discard. */
  lists: Endpoint[];
  /** Extra actions shown first. */
  children?: ReactNode;
}

/** Delete (confirmed) for a synced row; retry / discard (confirmed) for a failed one. */
export function RowActions<R extends SyncRow>({ row, routes, onDelete, lists, children }: RowActionsProps<R>) {
  const { t } = useTranslation('credential');
  const operate = useOperation(...lists);
  const failed = syncFailed(row.syncState);
  const confirm = { okText: t('ok'), cancelText: t('cancel') };
  return (
    <Space size="small">
      {children}
      {failed && <Button type="link" size="small" onClick={() => void operate(() => call(routes.retry, { body: { id: row.id } }), t('retryDone'))}>{t('retry')}</Button>}
      {failed && (
        <Popconfirm title={t('discardConfirm')} {...confirm} onConfirm={() => operate(() => call(routes.discard, { body: { id: row.id } }), t('discarded'))}>
          <Button type="link" size="small">{t('discard')}</Button>
        </Popconfirm>
      )}
      {row.syncState === 'normal' && (
        <Popconfirm title={t('deleteConfirm')} {...confirm} okButtonProps={{ danger: true }} onConfirm={() => onDelete(row)}>
          <Button type="link" size="small" danger>{t('delete')}</Button>
        </Popconfirm>
      )}
    </Space>
  );
}

/** The sync-state filter of a credential list. */
export function SyncStateFilter() {
  const { t } = useTranslation('credential');
  return (
    <Form.Item name="syncState" label={t('syncState')}>
      <Select style={{ width: 130 }} options={[{ value: 'all', label: t('all') }, ...SYNC_STATES.map((s) => ({ value: s, label: t(`syncStates.${s}`) }))]} />
    </Form.Item>
  );
}

/** The sync-state filter and a keyword box (`placeholder`: a credential-namespace key). */
export function SyncAndKeywordFilters({ placeholder, width = 180 }: { placeholder: string; width?: number }) {
  const { t } = useTranslation('credential');
  return (
    <>
      <SyncStateFilter />
      <Form.Item name="keyword" label={t('keyword')}>
        <Input allowClear placeholder={t(placeholder)} style={{ width }} />
      </Form.Item>
    </>
  );
}

/** Filter form values -> list query: drops `all` and empty values, trims the keyword; `lockId` (else the form's lock) narrows to one lock. */
export function listQuery(values: Record<string, unknown>, lockId?: number): Record<string, unknown> {
  const picked = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null && v !== 'all' && v !== ''));
  const keyword = typeof picked.keyword === 'string' ? picked.keyword.trim() || undefined : undefined;
  return { ...picked, keyword, lockId: lockId ?? picked.lockId };
}
