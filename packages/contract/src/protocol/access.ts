/**
 * Access control over the ZIGUANG protocol in the Matter DoorLock cluster's terms (
 * docs/access-schedules.md maps each message to its Matter command, attribute or event):
 * - downlinks `weekDaySchedule`, `yearDaySchedule` (per lock user), `holidaySchedule` (per lock), each
 *   with action `set` / `clear` like Matter's Set…/Clear… commands; `queryInventory`; `remoteUnlock`;
 * - uplinks `lockUserChange` (Matter event LockUserChange) and `inventory` (the lock's slot tables).
 * Indexes are 0-based like every slot of this protocol (Matter's are 1-based: index + 1). Times are ms
 * since epoch; week-day times are hours and minutes of the lock's local time (access/decide.ts).
 */
import { z } from 'zod';
import { text } from '../api/input.js';
import { OPERATING_MODES, WEEK_DAYS } from '../access/matter.js';

const slot = z.number().int().min(0).max(65_535);
/** Position of a schedule in the lock's table of that kind (per user for week-day and year-day schedules). */
const scheduleIndex = z.number().int().min(0).max(255);
const instant = z.number().int().nonnegative().max(253_402_300_799_000);
const action = z.enum(['set', 'clear']);

/** SetWeekDaySchedule / ClearWeekDaySchedule (Matter 5.2.10.14, .16); `set` needs days and times, end after start. */
export const weekDayScheduleData = z.object({
  action, userSlot: slot, index: scheduleIndex,
  /** DaysMaskMap: bit 0 Sunday ... bit 6 Saturday. */
  daysMask: z.number().int().min(1).max(127).optional(),
  startHour: z.number().int().min(0).max(23).optional(),
  startMinute: z.number().int().min(0).max(59).optional(),
  endHour: z.number().int().min(0).max(23).optional(),
  endMinute: z.number().int().min(0).max(59).optional(),
}).refine((d) => d.action === 'clear' || (d.daysMask !== undefined && d.startHour !== undefined && d.startMinute !== undefined && d.endHour !== undefined
  && d.endMinute !== undefined && d.endHour * 60 + d.endMinute > d.startHour * 60 + d.startMinute), { message: 'set needs daysMask and a start before the end' });

/** SetYearDaySchedule / ClearYearDaySchedule (Matter 5.2.10.17, .19): LocalStartTime < LocalEndTime. */
export const yearDayScheduleData = z.object({
  action, userSlot: slot, index: scheduleIndex, localStartTime: instant.optional(), localEndTime: instant.optional(),
}).refine((d) => d.action === 'clear' || (d.localStartTime !== undefined && d.localEndTime !== undefined && d.localStartTime < d.localEndTime), { message: 'set needs a start before the end' });

/**
 * SetHolidaySchedule / ClearHolidaySchedule (Matter 5.2.10.20, .22) of the lock: from / to and the
 * operating mode in force meanwhile. `worksAs` is a ZIGUANG extension for China's 调休 working days
 * (a weekend day worked): the week-day schedules run as on that day (operating mode `normal`).
 */
export const holidayScheduleData = z.object({
  action, index: scheduleIndex, localStartTime: instant.optional(), localEndTime: instant.optional(),
  operatingMode: z.enum(OPERATING_MODES).optional(), worksAs: z.enum(WEEK_DAYS).optional(),
}).refine((d) => d.action === 'clear' || (d.localStartTime !== undefined && d.localEndTime !== undefined && d.localStartTime < d.localEndTime && d.operatingMode !== undefined),
  { message: 'set needs a start before the end and an operating mode' });

export const accessDownlinkData = {
  weekDaySchedule: weekDayScheduleData,
  yearDaySchedule: yearDayScheduleData,
  holidaySchedule: holidayScheduleData,
  /**
   * Assigns a credential the lock holds to a user (Matter SetCredential with OperationType modify and a
   * UserIndex): adopting a code added at the keypad.
   */
  credentialOwner: z.object({ table: z.enum(['passwords', 'cards', 'fingerprints']), slot, userSlot: slot }),
  /** Asks the lock for its slot inventory (answered with commandResult, then an `inventory` uplink). */
  queryInventory: z.object({}),
  /** Unlocks now (Matter UnlockDoor, sent only to always-online locks): who asked and why, echoed in the open record. */
  remoteUnlock: z.object({ operator: text().min(1).max(64), reason: text().min(1).max(200) }),
} as const;

/** LockDataTypeEnum (Matter 5.2.6.9), the part ZIGUANG locks report. */
export const LOCK_DATA_TYPES = ['userIndex', 'pin', 'rfid', 'fingerprint'] as const;
/** DataOperationTypeEnum (Matter 5.2.6.10). */
export const DATA_OPERATION_TYPES = ['add', 'clear', 'modify'] as const;
/** OperationSourceEnum (Matter 5.2.6.15), the part ZIGUANG locks report. */
export const OPERATION_SOURCES = ['unspecified', 'manual', 'keypad', 'auto', 'remote'] as const;

/**
 * LockUserChange event (Matter 5.2.11.5): the lock changed a user or credential on its own: e.g. it
 * cleared a disposable user after its one use (`userIndex` `clear` `auto`), or a code was added at
 * the keypad (`pin` `add` `keypad`, followed by an `inventory`).
 */
export const lockUserChangeData = z.object({
  lockDataType: z.enum(LOCK_DATA_TYPES),
  dataOperationType: z.enum(DATA_OPERATION_TYPES),
  operationSource: z.enum(OPERATION_SOURCES),
  userSlot: slot.optional(),
  /** The credential slot (pin, rfid, fingerprint). */
  slot: slot.optional(),
});

/** Why the lock sends its inventory. */
export const INVENTORY_REASONS = ['change', 'request', 'daily'] as const;
/** Occupied slots of one table: bit i (byte i>>3, least significant bit first) set when slot i is occupied; lower-case hex. */
const bitmap = z.string().regex(/^([0-9a-f]{2}){0,512}$/);

/**
 * The lock's slot inventory (never a secret): which user, password, card and fingerprint slots are
 * occupied, and `digest` = SHA-256 (hex) of inventoryDigestInput. Sent after a change at the keypad,
 * on `queryInventory`, and daily.
 */
export const inventoryData = z.object({
  reason: z.enum(INVENTORY_REASONS),
  users: bitmap, passwords: bitmap, cards: bitmap, fingerprints: bitmap,
  digest: z.string().regex(/^[0-9a-f]{64}$/),
});
export type InventoryData = z.infer<typeof inventoryData>;
export const INVENTORY_TABLES = ['users', 'passwords', 'cards', 'fingerprints'] as const;
export type InventoryTable = (typeof INVENTORY_TABLES)[number];

/** What the digest hashes: the four bitmaps joined by `|`, in INVENTORY_TABLES order. */
export const inventoryDigestInput = (tables: Record<InventoryTable, string>) => INVENTORY_TABLES.map((table) => tables[table]).join('|');

/** Occupied slots -> bitmap (hex). */
export function slotBitmap(slots: Iterable<number>): string {
  const bytes: number[] = [];
  for (const slot of slots) {
    const at = slot >> 3;
    while (bytes.length <= at) bytes.push(0);
    bytes[at] = (bytes[at] as number) | (1 << (slot & 7));
  }
  return bytes.map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Bitmap (hex) -> occupied slots, ascending. */
export function bitmapSlots(hex: string): number[] {
  const slots: number[] = [];
  for (let at = 0; at * 2 < hex.length; at++) {
    const byte = Number.parseInt(hex.slice(at * 2, at * 2 + 2), 16);
    for (let bit = 0; bit < 8; bit++) if ((byte >> bit) & 1) slots.push(at * 8 + bit);
  }
  return slots;
}
