/**
 * Paging of the high-volume logs in ServerTable: the lists whose query takes a `cursor` (contract
 * api/cursor.ts: 心跳日志, 上报日志, 开锁日志, 报警日志).
 * - A recent range: opened without a time range and without a lock (lockId / imei, or the heartbeat
 *   page's "all"), the list starts on the last RECENT_DAYS days, written into the URL so the time
 *   filter shows it and the operator can clear it (查询 with an empty range lists everything; 重置 goes
 *   back to the recent range). The server imposes no range: API callers keep their semantics.
 * - Cursors: every full page in the default order names the next page's cursor; the table keeps them
 *   per view (filters, sort, size) in memory and asks page n + 1 by its cursor when it has it, so next /
 *   previous stay cheap however deep. A page reached another way (a jump, a link, a reload) is asked by
 *   offset as before. Past a capped total ("10000+") the pager always offers one more page while a
 *   cursor says there is one.
 */
import type { Endpoint, Page } from '@iot/contract';
import { useRef } from 'react';

/** Days of the recent range a log list opens on. */
export const RECENT_DAYS = 7;

/** True when `endpoint` is a log list paged by cursor (its query schema declares `cursor`). */
export function isKeysetList(endpoint: Endpoint): boolean {
  const shape = (endpoint.query as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape !== undefined && 'cursor' in shape;
}

/** The URL query of a recent-range view: `params` plus `startTime` RECENT_DAYS ago (to the minute). */
export function withRecentRange(params: URLSearchParams, now = Date.now()): URLSearchParams {
  const next = new URLSearchParams(params);
  const start = new Date(now - RECENT_DAYS * 86_400_000);
  start.setSeconds(0, 0);
  next.set('startTime', start.toISOString());
  return next;
}

/** True when the URL names no time range and no single lock (so a log list opens on the recent range). */
export function wantsRecentRange(params: URLSearchParams): boolean {
  const lock = params.get('lockId') || params.get('imei');
  return !params.get('startTime') && !params.get('endTime') && (!lock || lock === 'all');
}

/**
 * The cursors of view `view` (filters, sort, size; a new view forgets the old one's): `cursorOf(n)`
 * the cursor to ask page n with (undefined: by offset), `remember(page)` notes the next page's cursor of
 * a page shown (never a placeholder kept from another page or view).
 */
export function useKeysetCursors(enabled: boolean, view: string) {
  const cursors = useRef({ view, byPage: new Map<number, string>() });
  if (cursors.current.view !== view) cursors.current = { view, byPage: new Map() };
  const { byPage } = cursors.current;
  return {
    cursorOf: (current: number) => (enabled && current > 1 ? byPage.get(current) : undefined),
    remember: (page: Page<unknown>) => {
      if (!enabled) return;
      if (page.nextCursor) byPage.set(page.current + 1, page.nextCursor);
      else byPage.delete(page.current + 1);
    },
  };
}

/** The total the pager counts: a capped total grows by one page while the page shown has a next one. */
export function pagerTotal(page: Page<unknown>, current: number, size: number): number {
  return page.totalCapped && page.nextCursor ? Math.max(page.total, current * size + 1) : page.total;
}
