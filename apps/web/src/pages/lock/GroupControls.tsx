/**
 * 门锁信息's group controls: the group filter, and for holders of LOCK_GROUP_EDIT "add to
 * group" for the selected rows (by IMEI), for one row (its 更多 menu) or for every lock of the
 * current filter (the list's query in the URL, sent as the device target's `filter`).
 */
import { type DeviceTarget, LOCK_FILTER_KEYS, lockGroupEndpoints, type LockRecord } from '@iot/contract';
import { Button, Form, Select } from 'antd';
import { type Key, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useApiQuery } from '../../api/useApiQuery';
import { useAllowed } from '../../hooks/useSession';
import type { MoreAction } from '../../components/MoreActions';
import { AddToGroupModal } from '../../components/AddToGroupModal';


/** The group filter of the search form (field `groupId`). */
export function GroupFilterItem() {
  const { t } = useTranslation('group');
  const { data } = useApiQuery(lockGroupEndpoints.options);
  return (
    <Form.Item name="groupId" htmlFor="lock-filter-group" label={t('group')}>
      <Select id="lock-filter-group" allowClear showSearch optionFilterProp="label" style={{ width: 150 }} placeholder={t('allGroups')}
        options={(data ?? []).map((group) => ({ value: group.id, label: group.name }))} />
    </Form.Item>
  );
}

/** The batch action, the toolbar button and their modal; nothing for accounts without LOCK_GROUP_EDIT. */
export function useGroupActions() {
  const { t } = useTranslation('group');
  const mayGroup = useAllowed('LOCK_GROUP_EDIT');
  const [params] = useSearchParams();
  const [adding, setAdding] = useState<{ target: DeviceTarget; description: string; clear?: () => void }>();
  // Stable, so the list's columns are not rebuilt at every render.
  const addOne = useCallback((lock: LockRecord): MoreAction => ({
    key: 'addToGroup', label: t('addToGroup'), run: () => setAdding({ target: { imeis: [lock.imei] }, description: `${lock.name} (${lock.imei})` }),
  }), [t]);
  if (!mayGroup) return { batchActions: undefined, rowAction: undefined, toolbar: null, modal: null };
  const filter = Object.fromEntries([...params].filter(([key]) => LOCK_FILTER_KEYS.includes(key)));
  const batchActions = (selected: Key[], clear: () => void) => (
    <Button id="lock-add-to-group" onClick={() => setAdding({ target: { imeis: selected.map(String) }, description: t('selectedLocks', { count: selected.length }), clear })}>
      {t('addSelected', { count: selected.length })}
    </Button>
  );
  const toolbar = (
    <Button id="lock-filter-to-group" onClick={() => setAdding({ target: { filter }, description: t('filteredLocks') })}>{t('addFiltered')}</Button>
  );
  const close = () => { adding?.clear?.(); setAdding(undefined); };
  const modal = <AddToGroupModal open={adding !== undefined} target={adding?.target} description={adding?.description} onClose={close} />;
  return { batchActions, rowAction: addOne, toolbar, modal };
}
