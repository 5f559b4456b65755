/**
 * The search form of 门锁信息 and its mapping to the lock list's query (contract lockFilterQuery), all
 * kept in the URL by ServerTable: keyword, live state (online / asleep / offline, or online-or-asleep
 * = `online=true`), attention (any of ATTENTION_KINDS, or service ending within 30 days, each a `kind=true`
 * parameter; the home page and 门锁概况 link here with them), device type, group (分组管理), building / floor / room, firmware version, registry state.
 */
import { ATTENTION_KINDS, deviceTypeEndpoints, LIVE_STATES, type lockFilterQuery } from '@iot/contract';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useApiQuery } from '../../api/useApiQuery';
import { GroupFilterItem } from './GroupControls';

type Values = Record<string, unknown>;
/** The choices of the attention select: the attention kinds, and the service ending soon (`serviceExpiring`). */
const FLAGS = [...ATTENTION_KINDS, 'serviceExpiring'] as const;

/** Form values when the URL names no filter. */
export const INITIAL_LOCK_FILTERS: Values = { liveState: 'all', state: 'registered' };

/**
 * The lock list's filters as sent (the contract's lockFilterQuery before parsing): the one definition
 * of which filters exist. Every key is listed below, so a filter the contract adds or renames fails
 * the type check here instead of being silently dropped from the form's query.
 */
type LockFilterInput = z.input<typeof lockFilterQuery>;
type LockFilterName = keyof LockFilterInput;
type LockFilterQuery = { [Name in LockFilterName]: LockFilterInput[Name] | undefined };

/** Form values -> query: 'all' choices dropped, text trimmed, attention kinds as `kind=true`. */
export function lockQuery(values: Values): LockFilterQuery {
  const text = (key: string) => (typeof values[key] === 'string' ? (values[key] as string).trim() || undefined : undefined);
  const live = values.liveState;
  const attention = Array.isArray(values.attention) ? values.attention as string[] : [];
  const state = typeof values.state === 'string' && values.state !== 'registered' ? values.state as LockFilterQuery['state'] : undefined;
  const flags = Object.fromEntries(FLAGS.map((kind) => [kind, attention.includes(kind) ? 'true' : undefined])) as Record<(typeof FLAGS)[number], 'true' | undefined>;
  return {
    keyword: text('keyword'),
    online: live === 'reachable' ? 'true' : undefined,
    liveState: typeof live === 'string' && (LIVE_STATES as readonly string[]).includes(live) ? live as LockFilterQuery['liveState'] : undefined,
    ...flags,
    model: text('model'), building: text('building'), floor: text('floor'), room: text('room'), firmwareVersion: text('firmwareVersion'), state,
    groupId: typeof values.groupId === 'number' || typeof values.groupId === 'string' ? values.groupId : undefined,
  };
}

/** URL query -> form values (`online=true|false` as the live-state choice it means). */
export function lockFormValues(query: Record<string, string>): Values {
  const { online, liveState, groupId, ...rest } = query;
  const attention = FLAGS.filter((kind) => rest[kind] === 'true');
  for (const kind of FLAGS) delete rest[kind];
  const live = liveState ?? (online === 'true' ? 'reachable' : online === 'false' ? 'offline' : 'all');
  return { ...INITIAL_LOCK_FILTERS, ...rest, liveState: live, attention, groupId: groupId ? Number(groupId) : undefined };
}

/** The Form.Items of the lock list's search form. */
export function LockFilterItems() {
  const { t } = useTranslation('lock');
  const { data: types } = useApiQuery(deviceTypeEndpoints.options);
  return (
    <>
      <Form.Item name="keyword" htmlFor="lock-keyword" label={t('keyword')}>
        <Input id="lock-keyword" allowClear placeholder={t('keywordPlaceholder')} style={{ width: 200 }} />
      </Form.Item>
      <Form.Item name="liveState" htmlFor="lock-filter-live" label={t('status')}>
        <Select id="lock-filter-live" style={{ width: 150 }} options={['all', 'reachable', ...LIVE_STATES].map((value) => ({ value, label: t(`liveStates.${value}`) }))} />
      </Form.Item>
      <Form.Item name="attention" htmlFor="lock-filter-attention" label={t('attention')}>
        <Select id="lock-filter-attention" mode="multiple" allowClear style={{ minWidth: 200 }} placeholder={t('attentionAny')}
          options={FLAGS.map((value) => ({ value, label: t(`attentionKinds.${value}`) }))} />
      </Form.Item>
      <Form.Item name="model" htmlFor="lock-filter-model" label={t('model')}>
        <Select id="lock-filter-model" allowClear style={{ width: 130 }} placeholder={t('allTypes')} options={(types ?? []).map((type) => ({ value: type.model, label: type.model }))} />
      </Form.Item>
      <GroupFilterItem />
      <Form.Item name="building" htmlFor="lock-filter-building" label={t('building')}>
        <Input id="lock-filter-building" allowClear style={{ width: 100 }} />
      </Form.Item>
      <Form.Item name="floor" htmlFor="lock-filter-floor" label={t('floor')}>
        <Input id="lock-filter-floor" allowClear style={{ width: 80 }} />
      </Form.Item>
      <Form.Item name="room" htmlFor="lock-filter-room" label={t('roomNo')}>
        <Input id="lock-filter-room" allowClear style={{ width: 80 }} />
      </Form.Item>
      <Form.Item name="firmwareVersion" htmlFor="lock-filter-firmware" label={t('firmware')}>
        <Input id="lock-filter-firmware" allowClear style={{ width: 100 }} />
      </Form.Item>
      <Form.Item name="state" label={t('state')}>
        <Select style={{ width: 150 }} options={[
          ...(['registered', 'active', 'disabled', 'decommissioned', 'all'] as const).map((value) => ({ value, label: t(`states.${value}`) })),
        ]} />
      </Form.Item>
    </>
  );
}
