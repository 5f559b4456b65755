import type { StayImportColumn } from '@iot/contract';
import { describe, expect, it } from 'vitest';
import type { SheetRow } from '../../../http/sheet.js';
import { parseBookings, parseKind, parseTime } from './parse.js';

const EMPTY = { building: 'A栋', floor: '1层', room: '101', kind: '', checkInAt: '2030-05-01 14:00', checkOutAt: '2030-05-02 12:00', bufferBeforeMinutes: '', bufferAfterMinutes: '', reference: '', guestName: '张三', guestMobile: '13900000001', guestIdCard: '' };
const rowOf = (row: number, cells: Partial<Record<StayImportColumn, string>>): SheetRow<StayImportColumn> => ({ row, cells: { ...EMPTY, ...cells } });

describe('booking import parsing', () => {
  it('reads wall-clock times in the data centre zone, ISO 8601 with an offset, and refuses the rest', () => {
    expect(parseTime('2030-05-01 14:00', 'Asia/Shanghai')).toBe(Date.parse('2030-05-01T06:00:00Z'));
    expect(parseTime('2030/5/1 14:00:30', 'Asia/Shanghai')).toBe(Date.parse('2030-05-01T06:00:30Z'));
    expect(parseTime('2030-07-01 14:00', 'Europe/Berlin')).toBe(Date.parse('2030-07-01T12:00:00Z')); // summer time
    expect(parseTime('2030-01-01 14:00', 'Europe/Berlin')).toBe(Date.parse('2030-01-01T13:00:00Z'));
    expect(parseTime('2030-05-01T14:00:00', 'Asia/Shanghai')).toBe(Date.parse('2030-05-01T06:00:00Z')); // no offset: wall clock
    expect(parseTime('2030-05-01T14:00:00+08:00', 'UTC')).toBe(Date.parse('2030-05-01T06:00:00Z'));
    for (const bad of ['2030-02-30 10:00', '2030-05-01', '2030-05-01T14:00:00+25:00', 'tomorrow', '2030-05-01 25:00', '']) expect(parseTime(bad, 'UTC'), bad).toBeUndefined();
  });

  it('reads the kind by key or by its word in either language; empty is a hotel night', () => {
    expect([parseKind(''), parseKind('长租'), parseKind('shortrental'), parseKind('Hotel')]).toEqual(['hotelNight', 'longLease', 'shortRental', 'hotelNight']);
    expect(parseKind('weekly')).toBeUndefined();
  });

  it('makes one stay of the rows sharing a reference and names the row and column of each problem', () => {
    const { stays, errors } = parseBookings([
      rowOf(2, { reference: 'R1' }), rowOf(3, { reference: 'R1', guestName: '李四', guestMobile: '13900000002', guestIdCard: '11010519491231002X' }),
      rowOf(4, { reference: 'R2', room: '102', kind: 'weekly', bufferAfterMinutes: 'ten' }),
      rowOf(5, { reference: 'R1', room: '103', guestName: '王五', guestMobile: '13900000003' }),
      rowOf(6, { room: '104', guestName: '' }),
    ], 'Asia/Shanghai');
    expect(stays).toEqual([]); // R1 is spoilt by row 5's other room
    expect(Object.fromEntries([...errors].map(([row, list]) => [row, list.map((e) => e.column)]))).toEqual({ 4: ['kind', 'bufferAfterMinutes'], 5: ['room'], 6: ['guestName'] });
    const clean = parseBookings([rowOf(2, { reference: 'R1' }), rowOf(3, { reference: 'R1', guestName: '李四', guestMobile: '13900000002' }), rowOf(4, { room: '102', kind: '长租' })], 'Asia/Shanghai');
    expect(clean.errors.size).toBe(0);
    expect(clean.stays.map((s) => [s.rows, s.body.guests.length, s.body.kind])).toEqual([[[2, 3], 2, 'hotelNight'], [[4], 1, 'longLease']]);
    expect(clean.stays[0]?.body.checkInAt).toBe('2030-05-01T06:00:00.000Z');
  });

  it('refuses a stay overlapping an earlier row of the same room', () => {
    const { stays, errors } = parseBookings([rowOf(2, {}), rowOf(3, { checkInAt: '2030-05-02 11:00', checkOutAt: '2030-05-03 11:00' }), rowOf(4, { checkInAt: '2030-05-02 12:00', checkOutAt: '2030-05-03 11:00', room: '102' })], 'UTC');
    expect(stays.map((s) => s.rows[0])).toEqual([2, 4]);
    expect(errors.get(3)?.[0]).toMatchObject({ column: 'checkInAt', reason: { 'en-US': 'overlaps the stay of row 2 (same room)' } });
  });
});
