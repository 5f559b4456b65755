/**
 * Where a table too wide for its room folds (columnFit.tsx): widths such that, before any horizontal
 * scroll, the columns in sight are whole and the first one out of sight starts exactly at the pinned
 * actions column. Without it the column at the edge was drawn half under 操作 (at 1366 px 最后心跳 on
 * 门锁信息, 完成时间 on 下发日志): an operator saw a cut header and a cut value and no sign that more
 * of it was there.
 */

const sum = (list: readonly number[]) => list.reduce((total, width) => total + width, 0);

/**
 * Narrower widths for the columns at `shrinkable` so that `widths` add up to at most `available` px:
 * the widest give up room first, none below its floor. Returns the new widths (the same when they fit).
 */
export function shrinkToFit(widths: readonly number[], floors: readonly number[], shrinkable: readonly boolean[], available: number): number[] {
  if (sum(widths) <= available) return [...widths];
  // One level for all: a shrinkable column is at most that wide (never below its floor). The highest level that fits.
  const capped = (level: number) => widths.map((width, i) => (shrinkable[i] ? Math.min(width, Math.max(level, floors[i] ?? 0)) : width));
  let low = 0;
  let high = Math.max(...widths);
  for (let step = 0; step < 24; step++) {
    const middle = (low + high) / 2;
    if (sum(capped(middle)) > available) high = middle;
    else low = middle;
  }
  return capped(low).map((width) => Math.floor(width + 0.01));
}

/**
 * Widths (px) of columns given their natural widths, the floors the shrinkable ones may narrow to and
 * which are pinned to the right edge, in `room` px:
 * - all fit once narrowed (shrinkToFit): those widths;
 * - else the table scrolls, and it folds at a column: the longest run of leading columns whose floors fit
 *   beside the pinned ones is narrowed or widened to fill exactly the room they leave (wrapping less
 *   where it can), and every column after the fold keeps its natural width (it is seen by scrolling).
 * The page's column order says which columns an operator watches: they come first.
 */
export function foldWidths(natural: readonly number[], floors: readonly number[], shrinkable: readonly boolean[], pinnedEnd: readonly boolean[], room: number): number[] {
  const fitted = shrinkToFit(natural, floors, shrinkable, room);
  if (sum(fitted) <= room) return fitted;
  const inSight = room - sum(natural.filter((_, i) => pinnedEnd[i]));
  const leading = natural.map((_, i) => i).filter((i) => !pinnedEnd[i]);
  const least = (i: number) => (shrinkable[i] ? (floors[i] ?? 0) : (natural[i] ?? 0));
  let count = 0;
  let used = 0;
  while (count < leading.length && used + least(leading[count] as number) <= inSight) used += least(leading[count++] as number);
  if (count === 0) return fitted;
  const shown = leading.slice(0, count);
  const widths = [...natural];
  const narrowed = shrinkToFit(shown.map((i) => natural[i] ?? 0), shown.map((i) => floors[i] ?? 0), shown.map((i) => shrinkable[i] ?? false), inSight);
  // What is left goes to the columns in sight, the text columns first, so the fold falls on a column's edge.
  const takers = shown.some((i) => shrinkable[i]) ? shown.filter((i) => shrinkable[i]) : shown;
  const slack = inSight - sum(narrowed);
  shown.forEach((i, at) => { widths[i] = narrowed[at] as number; });
  takers.forEach((i, at) => { widths[i] = (widths[i] as number) + Math.floor(slack / takers.length) + (at === takers.length - 1 ? slack % takers.length : 0); });
  return widths;
}
