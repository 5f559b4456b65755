/** URL and sorter helpers of ServerTable: query values as URL strings, and what a sortable column's sorter shows. */
import type { SortOrder } from '@iot/contract';

/** Non-empty query values as URL strings. */
export function toParams(query: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== null && value !== '').map(([key, value]) => [key, String(value)]));
}

/**
 * A sortable column's sorter state: the requested sort, else the server's default order (`fallback`,
 * descend unless it says) on its column; the default column cycles descend -> ascend -> back to the
 * default (never "unsorted").
 */
export function sortShown(key: string, sortField: string | undefined, sortOrder: SortOrder | undefined, fallback: { field: string; order?: SortOrder } | undefined) {
  if (sortField) return { sortOrder: key === sortField ? (sortOrder ?? null) : null };
  if (key !== fallback?.field) return { sortOrder: null };
  const order = fallback.order ?? 'descend';
  // antd moves to the direction after the current one in sortDirections: the other one, not "unsorted".
  return { sortOrder: order, sortDirections: order === 'descend' ? ['descend' as const, 'ascend' as const] : ['ascend' as const, 'descend' as const] };
}
