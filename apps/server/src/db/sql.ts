/**
 * SQL helpers every module uses (issue #8: one way of each): LIKE escaping for "contains" searches
 * and timestamps as ISO 8601 UTC. Lock columns and the lock keyword filter are the lock module's
 * (modules/lockDevice/sql.ts).
 */

/**
 * An ILIKE pattern matching values that contain `text` literally: `%`, `_` and `\` are escaped
 * (PostgreSQL's default LIKE escape character is the backslash).
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** ISO 8601 UTC of a timestamp value as either driver returns it (Date or string). */
export function iso(value: Date | string): string;
/** ISO 8601 UTC of a nullable timestamp value; null stays null. */
export function iso(value: Date | string | null): string | null;
export function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}
