/**
 * Access schedules, tenant-scoped with row-level security (same migration): week-day and
 * year-day schedules of lock users (Matter WeekDaySchedule / YearDaySchedule; owned by
 * modules/accessSchedule), holiday calendars of a data centre and the holiday schedules each lock holds
 * (Matter HolidaySchedule; owned by modules/holidayCalendar). Sync state and pending action follow the
 * row's last command like credentials (modules/credential/sync.ts).
 */
import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { lockUsers } from './schema-credential.js';
import { locks } from './schema.js';

const ts = (name: string) => timestamp(name, { withTimezone: true });
/** The sync columns every row the lock must confirm carries (contract SYNC_STATES; add | modify | delete). */
const syncColumns = () => ({
  syncState: text('sync_state').notNull(),
  pendingAction: text('pending_action').notNull(),
  lastCommandId: bigint('last_command_id', { mode: 'number' }),
});

/** A week-day or year-day schedule of one lock user. */
export const accessSchedules = pgTable('access_schedules', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  lockId: integer('lock_id').notNull().references(() => locks.id, { onDelete: 'cascade' }),
  lockUserId: integer('lock_user_id').notNull().references(() => lockUsers.id, { onDelete: 'cascade' }),
  /** weekDay | yearDay */
  kind: text('kind').notNull(),
  /** Position in the user's table of that kind on the lock, 0-based. */
  scheduleIndex: integer('schedule_index').notNull(),
  /** Week-day: DaysMaskMap (bit 0 Sunday) and minutes since local midnight, end exclusive. */
  daysMask: integer('days_mask'),
  startMinute: integer('start_minute'),
  endMinute: integer('end_minute'),
  /** Year-day: from / to (end exclusive). */
  localStartTime: ts('local_start_time'),
  localEndTime: ts('local_end_time'),
  ...syncColumns(),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [
  uniqueIndex('access_schedules_user_index').on(t.lockUserId, t.kind, t.scheduleIndex),
  index('access_schedules_tenant').on(t.tenantId, t.id),
  index('access_schedules_lock').on(t.lockId),
  index('access_schedules_command').on(t.lastCommandId),
]);

/** A holiday calendar of a data centre and its scope (buildings, lock groups). */
export const holidayCalendars = pgTable('holiday_calendars', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  name: text('name').notNull(),
  buildings: text('buildings').array().notNull().default(sql`'{}'::text[]`),
  groupIds: integer('group_ids').array().notNull().default(sql`'{}'::int[]`),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [uniqueIndex('holiday_calendars_tenant_name').on(t.tenantId, t.name)]);

/** A public holiday (with the locks' operating mode) or a 调休 working day, local dates, end inclusive. */
export const holidayEntries = pgTable('holiday_entries', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  calendarId: integer('calendar_id').notNull().references(() => holidayCalendars.id, { onDelete: 'cascade' }),
  /** holiday | workday */
  kind: text('kind').notNull(),
  name: text('name').notNull(),
  startDate: date('start_date').notNull(),
  endDate: date('end_date').notNull(),
  /** contract OPERATING_MODES */
  operatingMode: text('operating_mode').notNull(),
  /** Working days: contract WEEK_DAYS. */
  worksAs: text('works_as'),
}, (t) => [index('holiday_entries_calendar').on(t.calendarId, t.startDate)]);

/** A holiday schedule on one lock, as last sent (the entry may have changed or gone since). */
export const lockHolidaySchedules = pgTable('lock_holiday_schedules', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  lockId: integer('lock_id').notNull().references(() => locks.id, { onDelete: 'cascade' }),
  entryId: integer('entry_id').references(() => holidayEntries.id, { onDelete: 'set null' }),
  /** The calendar the entry came from (kept when the entry is gone, to clear it). */
  calendarId: integer('calendar_id'),
  name: text('name').notNull(),
  holidayIndex: integer('holiday_index').notNull(),
  localStartTime: ts('local_start_time').notNull(),
  localEndTime: ts('local_end_time').notNull(),
  operatingMode: text('operating_mode').notNull(),
  worksAs: text('works_as'),
  ...syncColumns(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [
  uniqueIndex('lock_holiday_schedules_lock_index').on(t.lockId, t.holidayIndex),
  index('lock_holiday_schedules_tenant').on(t.tenantId, t.id),
  index('lock_holiday_schedules_calendar').on(t.calendarId),
  index('lock_holiday_schedules_command').on(t.lastCommandId),
]);
