/** Column widths of ServerTable (columnFit.tsx): a header never cut when its column is as wide as it estimates. */
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { columnWidth, fitColumns, textWidth, tokenWidth } from './columnFit';
import { foldWidths, shrinkToFit } from './columnFold';

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

  it('sizes a cell a component draws by the text the component says it draws', () => {
    // A translated answer that neither the raw record nor the element's props hold.
    const Answer = Object.assign(({ code }: { code: number }) => String(code), { cellText: ({ code }: { code: number }) => (code === 3 ? '门锁上没有该用户（用户 12）' : '成功') });
    const width = columnWidth({ title: '结果', key: 'result', render: (_: unknown, r: { code: number }) => createElement(Answer, { code: r.code }) }, [{ code: 0 }, { code: 3 }]);
    expect(width).toBeGreaterThanOrEqual(textWidth('门锁上没有该用户（用户 12）'));
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

describe('fitColumns in a narrow table', () => {
  const records = [
    { imei: '861234500000000', note: 'Signal strength below the threshold for several hours', time: '2026-11-27 07:30:16', name: 'A栋101门锁' },
  ];
  const columns = [
    { title: 'IMEI', dataIndex: 'imei', key: 'imei' },
    { title: 'Note', dataIndex: 'note', key: 'note' },
    { title: 'Time', dataIndex: 'time', key: 'time', width: 170 },
    { title: 'Name', dataIndex: 'name', key: 'name' },
  ];

  it('measures the widest piece no line may break inside: a Latin run between spaces, one CJK character', () => {
    expect(tokenWidth('Signal strength below')).toBe(textWidth('strength'));
    expect(tokenWidth('861234500000000')).toBe(textWidth('861234500000000'));
    expect(tokenWidth('A栋101门锁')).toBe(Math.max(14, textWidth('101')));
  });

  it('keeps an IMEI column whole and narrows word columns no further than their longest word', () => {
    const { columns: fitted } = fitColumns(columns, records, false, undefined, 430);
    const width = (key: string) => fitted.find((column) => column.key === key)?.width as number;
    expect(width('imei')).toBe(columnWidth(columns[0] as never, records));
    expect(width('note')).toBeGreaterThanOrEqual(tokenWidth('threshold') + 26);
    expect(width('note')).toBeLessThan(columnWidth(columns[1] as never, records));
    // A page's own width narrows too, down to its date: the time wraps at its space.
    expect(width('time')).toBeLessThan(170);
    expect(width('time')).toBeGreaterThanOrEqual(tokenWidth('2026-11-27') + 26);
  });

  it('narrows no column below the width its cells were seen to need in the page', () => {
    const { columns: fitted } = fitColumns(columns, records, false, undefined, 540, { note: 200 });
    expect(fitted.find((column) => column.key === 'note')?.width).toBe(200);
  });
});

describe('a table too wide for its room', () => {
  const records = [{ imei: '861234500000000', name: 'A栋101门锁', status: 'online', time: '2026-11-27 07:30:16', state: 'active' }];
  const columns = [
    { title: 'IMEI', dataIndex: 'imei', key: 'imei', fixed: 'left' as const },
    { title: 'Name', dataIndex: 'name', key: 'name' },
    { title: 'Status', dataIndex: 'status', key: 'status' },
    { title: 'Last heartbeat', dataIndex: 'time', key: 'time' },
    { title: 'State', dataIndex: 'state', key: 'state' },
    { title: 'Actions', key: 'actions', fixed: 'right' as const, width: 150 },
  ];

  it('folds at a column edge: the columns in sight fill the room beside the pinned one, the rest keep their widths', () => {
    const room = 500;
    const { columns: fitted, scrollX } = fitColumns(columns, records, false, undefined, room);
    const widths = fitted.map((column) => column.width as number);
    expect(scrollX).toBeGreaterThan(room);
    // Some leading columns add up to exactly the room left of the pinned column: the next starts at its edge.
    let edge = 0;
    let count = 0;
    while (edge < room - 150) edge += widths[count++] as number;
    expect(edge).toBe(room - 150);
    expect(count).toBeGreaterThanOrEqual(2);
    for (const [i, column] of fitted.entries()) {
      if (i >= count && column.key !== 'actions') expect(column.width).toBe(columnWidth(columns[i] as never, records));
    }
    expect(widths[5]).toBe(150);
  });

  it('splits the room of the columns in sight over its text columns', () => {
    expect(foldWidths([140, 200, 200, 200, 150], [140, 100, 100, 100, 150], [false, true, true, true, false], [false, false, false, false, true], 500)).toEqual([140, 105, 105, 200, 150]);
    expect(shrinkToFit([140, 200], [140, 100], [false, true], 350)).toEqual([140, 200]);
  });
});

