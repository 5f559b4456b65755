/**
 * One way to write a range of numbers everywhere (门锁概况 wrote "-115--106" where the home
 * page and big screen wrote "-105..-96"): "from ~ to unit", "< to unit" below the first edge, "≥ from
 * unit" from the last one. Buckets are [from, to): the shown upper end is `to - 1` unless `closed`.
 */
export function rangeText(from: number | null, to: number | null, unit = '', closed = false): string {
  const tail = unit ? ` ${unit}` : '';
  if (from === null) return `< ${to}${tail}`;
  if (to === null) return `≥ ${from}${tail}`;
  return `${from} ~ ${closed ? to : to - 1}${tail}`;
}
