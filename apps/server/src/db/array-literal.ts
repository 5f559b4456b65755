/**
 * PostgreSQL array input text (`{1,2,3}`, `{"a","b\"c"}`) for the ingest hot path: one string
 * parameter per column, cast in SQL (`$1::int[]`), instead of a JS array that the driver serialises
 * element by element (PGlite spent ~5 ms per 500-row insert doing so; bench/RESULTS.md 2026-11-22).
 * Rules from the PostgreSQL manual, 8.15.6 "Array Value Input": elements separated by commas; a
 * double-quoted element may hold anything, with `"` and `\` escaped by a backslash.
 */

/** `{n1,n2,...}` of finite numbers. Throws on NaN or an infinity (not storable in int/real columns). */
export function numberArray(values: readonly number[]): string {
  for (const value of values) if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return `{${values.join(',')}}`;
}

/** `{"s1","s2",...}`: every element quoted, `"` and `\` escaped (so NULL, commas and braces stay plain text). */
export function textArray(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}
