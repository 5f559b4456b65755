/** Column widths of ServerTable (columnFit.tsx): a header never cut when its column is as wide as it estimates. */
import { describe, expect, it } from 'vitest';
import { columnWidth, shrinkToFit, textWidth } from './columnFit';

describe('columnWidth', () => {
  it('leaves room for a bold English title and the largest cell padding', () => {
    for (const title of ['Amount', 'Package', 'Refunded', 'Ordered by', 'WeChat Pay transaction']) {
      // Bold 14 px text is about 1.1x the regular estimate; 32 px of padding at the largest density.
      expect(columnWidth({ title, dataIndex: 'x' })).toBeGreaterThanOrEqual(Math.min(280, Math.ceil(textWidth(title) * 1.1) + 32));
    }
  });

  it('fits the widest cell and keeps its own width when it has one', () => {
    const records = [{ x: '861234500000000' }, { x: '1' }];
    expect(columnWidth({ title: 'IMEI', dataIndex: 'x' }, records)).toBeGreaterThanOrEqual(textWidth('861234500000000'));
    expect(columnWidth({ title: 'IMEI', dataIndex: 'x', width: 90 }, records)).toBe(90);
    expect(columnWidth({ title: 'x'.repeat(200), dataIndex: 'x' })).toBe(280);
  });
});

describe('shrinkToFit', () => {
  it('narrows the widest shrinkable columns first, down to their floors, until the widths fit', () => {
    // 200 + 280 + 280 + 160 (pinned) = 920 into 800: the two 280s give 60 each.
    expect(shrinkToFit([200, 280, 280, 160], [120, 120, 120, 160], [true, true, true, false], 800)).toEqual([200, 220, 220, 160]);
  });
  it('keeps the widths that fit, and stops at the floors (the rest scrolls)', () => {
    expect(shrinkToFit([100, 200], [100, 120], [true, true], 400)).toEqual([100, 200]);
    expect(shrinkToFit([200, 280, 160], [150, 150, 160], [true, true, false], 300)).toEqual([150, 150, 160]);
  });
});
