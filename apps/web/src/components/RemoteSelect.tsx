/**
 * The one remote select: a searchable antd Select whose options come from a contract
 * endpoint, searched on the server (the typed keyword goes into the query, not filtered locally) once
 * typing pauses (useDebouncedSearch: one request per pause, not per keystroke). The
 * lock, lock-user, account and role pickers are this component with their endpoint and labels.
 * - `query(keyword)` builds the endpoint's query; `records(data)` picks the rows; `option(row)` labels one;
 * - the chosen value keeps its label while a search shows other rows (`selected` row, or the last seen);
 * - `leading` options come first (e.g. "all locks"); `autoSelectFirst` picks the first row when empty
 *   (the first leading option when there is no row);
 * - `enabled: false` requests nothing (e.g. no lock chosen yet for a lock's users).
 */
import type { Endpoint, QueryOf, ResponseOf } from '@iot/contract';
import { Select, type SelectProps } from 'antd';
import { type CSSProperties, useEffect, useRef, useState } from 'react';
import { useApiQuery } from '../api/useApiQuery';
import { useDebouncedSearch } from './useDebouncedSearch';

type Value = string | number;
export interface RemoteOption<V extends Value> { value: V; label: string; disabled?: boolean }

export interface RemoteSelectProps<E extends Endpoint, R, V extends Value> {
  endpoint: E;
  query(keyword: string | undefined): QueryOf<E>;
  records(data: ResponseOf<E>): R[];
  option(row: R): RemoteOption<V>;
  value?: V | V[];
  onChange?(value: V | V[] | undefined, row: R | undefined): void;
  mode?: 'multiple';
  id?: string;
  placeholder?: string;
  allowClear?: boolean;
  /** Options before the fetched ones (e.g. "all"). */
  leading?: RemoteOption<V>[];
  autoSelectFirst?: boolean;
  enabled?: boolean;
  style?: CSSProperties;
  /** Extra props of the antd Select (e.g. `status`, `disabled`). */
  selectProps?: Omit<SelectProps, 'value' | 'onChange' | 'options' | 'mode'>;
}

/** A server-searched select over a contract endpoint. */
export function RemoteSelect<E extends Endpoint, R, V extends Value>(props: RemoteSelectProps<E, R, V>) {
  const { endpoint, value, autoSelectFirst, enabled = true, leading = [], onChange } = props;
  const [keyword, setKeyword] = useState('');
  const searched = useDebouncedSearch(keyword.trim());
  const { data, isFetching } = useApiQuery(endpoint, props.query(searched || undefined), { keepPrevious: true, enabled, live: false });
  const rows = data === undefined ? [] : props.records(data);
  const options = rows.map(props.option);
  // Labels of values seen before, so a chosen value outside the current search still shows its label.
  const seen = useRef(new Map<V, { option: RemoteOption<V>; row: R }>());
  rows.forEach((row, index) => {
    const option = options[index];
    if (option) seen.current.set(option.value, { option, row });
  });
  const chosen = (Array.isArray(value) ? value : value === undefined ? [] : [value])
    .filter((v) => !options.some((o) => o.value === v) && !leading.some((o) => o.value === v))
    .flatMap((v) => seen.current.get(v)?.option ?? []);

  const first = options[0]?.value;
  const firstRow = rows[0];
  // Nothing to pick (no rows, nothing searched): the first leading option (e.g. "all locks"), so a page waiting for a value goes on.
  const fallback = data !== undefined && rows.length === 0 && !searched ? leading[0]?.value : undefined;
  useEffect(() => {
    if (!autoSelectFirst || value !== undefined || !onChange) return;
    if (first !== undefined) onChange(first, firstRow);
    else if (fallback !== undefined) onChange(fallback, undefined);
  }, [autoSelectFirst, value, first, firstRow, fallback, onChange]);

  return (
    <Select<V | V[]>
      id={props.id}
      mode={props.mode}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      allowClear={props.allowClear ?? true}
      value={value}
      placeholder={props.placeholder}
      loading={isFetching}
      onChange={(next?: V | V[]) => {
        if (!Array.isArray(next)) setKeyword('');
        onChange?.(next, next === undefined || Array.isArray(next) ? undefined : seen.current.get(next)?.row);
      }}
      onClear={() => setKeyword('')}
      style={props.style}
      {...props.selectProps}
      options={[...leading, ...chosen, ...options]}
    />
  );
}
