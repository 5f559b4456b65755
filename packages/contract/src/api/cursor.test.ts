/** Page cursors: what encodeCursor writes decodes to the same row; anything else is refused by the query field. */
import { describe, expect, it } from 'vitest';
import { cursorField, decodeCursor, encodeCursor } from './cursor.js';

describe('page cursors', () => {
  it('round-trips a row with microseconds as base64url text', () => {
    const cursor = { t: '2026-03-01T08:00:00.123456Z', id: 9_007_199_254_740_991 };
    const text = encodeCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text)).toEqual(cursor);
    expect(cursorField.parse(text)).toEqual(cursor);
  });

  it('refuses text that is not a cursor it wrote', () => {
    for (const text of ['', 'abc', '!!!', encodeCursor({ t: '2026-03-01 08:00', id: 1 }), encodeCursor({ t: '2300-01-01T00:00:00Z', id: 1 }),
      encodeCursor({ t: '2026-03-01T08:00:00Z', id: 0 }), btoa('{"t":"2026-03-01T08:00:00Z","id":1,"x":1}'), 'A'.repeat(201)]) {
      expect(cursorField.safeParse(text).success, text).toBe(false);
    }
  });
});
