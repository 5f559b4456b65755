/**
 * Stays (docs/stays.md): a booking or lease of a room (building / floor / room of the lock
 * registry) by one or more guests. At check-in minus the room's lead time the platform gives every
 * guest a lock user (window = stay ± buffers) holding a password on every lock of the room, through
 * the credential service; check-out, cancel and no-show delete them, edit moves the window, a room
 * change moves them; a checked-in lease can be suspended (its lock users frozen) and resumed. Times are
 * ISO 8601 instants; buffers are minutes.
 *
 * Authority: the credential management key of 用户管理 (VOUCHER_USER_MANAGE, the lock users a stay
 * creates) for every change; the lists also with LOOK_INFO (产品 RoomInquiry, where the view lives).
 */
import { z } from 'zod';
import type { Authority } from '../authorities.js';
import { cardNumber } from './credential.js';
import { SYNC_STATES } from './credentialLog.js';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery } from './envelope.js';
import { stayCommonDoorEndpoints } from './stayCommonDoor.js';
import { stayBackupCodeEndpoints } from './stayBackupCode.js';
import { stayImportEndpoints } from './stayImport.js';
import { bufferMinutes, int4Id, keyword, text } from './input.js';
import { isoTime } from './time.js';
import { localized as label } from '../i18n.js';

export const STAY_KINDS = ['hotelNight', 'shortRental', 'longLease'] as const;
export type StayKind = (typeof STAY_KINDS)[number];
export const STAY_STATES = ['BOOKED', 'CHECKED_IN', 'SUSPENDED', 'CHECKED_OUT', 'CANCELLED', 'NO_SHOW'] as const;
export type StayState = (typeof STAY_STATES)[number];

/**
 * Allowed transitions (state -> states it may go to); a state with none is final. SUSPENDED (overdue
 * rent: the doors' lock users frozen) is left by a resume (CHECKED_IN) or a check-out.
 */
export const STAY_TRANSITIONS: Record<StayState, readonly StayState[]> = {
  BOOKED: ['CHECKED_IN', 'CANCELLED', 'NO_SHOW'],
  CHECKED_IN: ['SUSPENDED', 'CHECKED_OUT'],
  SUSPENDED: ['CHECKED_IN', 'CHECKED_OUT'],
  CHECKED_OUT: [],
  CANCELLED: [],
  NO_SHOW: [],
};
/** States whose stay holds its room (overlaps are refused among them) and whose credentials are kept. */
export const STAY_ACTIVE_STATES: readonly StayState[] = ['BOOKED', 'CHECKED_IN', 'SUSPENDED'];
/** The kinds that may be suspended: a lease, whose rent falls due while the tenant lives there (hotel nights and short rentals are paid up front). */
export const STAY_SUSPENDABLE_KINDS: readonly StayKind[] = ['longLease'];

/**
 * Buffers of a new data centre, minutes (the `tenants` columns' default): doors open this early before
 * check-in, this late after check-out. Each data centre sets its own (tenant settings); a stay may name its own.
 */
export const STAY_DEFAULT_BUFFERS = { beforeMinutes: 30, afterMinutes: 30 } as const;
/**
 * Margin added to a room's longest heartbeat interval for the lead time, ms (docs/stays.md "Lead time"):
 * credentials are issued at check-in - STAY_ALERT_BEFORE_MS - (longest interval + margin), so a sleeping
 * lock wakes at least once before the 1-hour readiness check.
 */
export const STAY_LEAD_MARGIN_MS = 10 * 60_000;
/** How long before check-in a stay that is not ready raises `stay.notReady`, ms. */
export const STAY_ALERT_BEFORE_MS = 3600_000;
/** Longest stay, days (a long lease is renewed by an edit). */
export const STAY_MAX_DAYS = 366;

/**
 * ready: every credential 正常 on every door; queued: some still on their way; failed: some failed;
 * pending: not issued yet (before the lead time); suspended: the stay is suspended and every door's lock
 * user is frozen on its lock (a freeze still on its way counts as queued); none: nothing to hold (stay over).
 */
export const STAY_READINESS = ['ready', 'queued', 'failed', 'pending', 'suspended', 'none'] as const;
export type StayReadiness = (typeof STAY_READINESS)[number];

/** Mainland China mobile number (11 digits). */
const mobile = z.string().regex(/^1[3-9]\d{9}$/, { error: '请输入 11 位手机号 / Enter an 11-digit mobile number' });
/** Resident ID card number (18 characters, the last a digit or X); stored sealed, never returned in full. */
const idCard = z.string().regex(/^\d{17}[\dXx]$/, { error: '身份证号须为 18 位 / An ID card number has 18 characters' });
const place = (max: number) => text().trim().max(max);
const minutes = bufferMinutes;

/** A guest; `cardNumber`: the IC card the front desk issued (hex as the lock reads it), held on every door beside the password; left out in an edit: kept. */
export const stayGuestInput = z.strictObject({ name: text().trim().min(1).max(50), mobile, idCardNumber: idCard.optional(), cardNumber: cardNumber.optional() });
export const stayRoom = z.strictObject({ building: place(64), floor: place(64), room: place(64).min(1) });

const timeRule: [(v: { checkInAt?: string; checkOutAt?: string }) => boolean, { error: string; path: PropertyKey[] }] = [
  (v) => !v.checkInAt || !v.checkOutAt || Date.parse(v.checkInAt) < Date.parse(v.checkOutAt),
  { error: '退房时间须晚于入住时间 / Check-out must be after check-in', path: ['checkOutAt'] },
];

export const stayAddBody = z.strictObject({
  room: stayRoom, kind: z.enum(STAY_KINDS).default('hotelNight'),
  guests: z.array(stayGuestInput).min(1).max(10),
  checkInAt: isoTime, checkOutAt: isoTime,
  bufferBeforeMinutes: minutes.optional(), bufferAfterMinutes: minutes.optional(),
  /** The PMS's own booking reference, shown and searchable. */
  reference: place(64).optional(),
}).refine(...timeRule);
export type StayAddBody = z.infer<typeof stayAddBody>;

/**
 * Changes times, buffers, guests (the guest list is replaced as a whole), the booking reference (empty:
 * none) or the kind (a suspended stay stays a longLease: 409 on body.kind otherwise).
 */
export const stayEditBody = z.strictObject({
  id: int4Id, kind: z.enum(STAY_KINDS).optional(), checkInAt: isoTime.optional(), checkOutAt: isoTime.optional(),
  bufferBeforeMinutes: minutes.optional(), bufferAfterMinutes: minutes.optional(),
  guests: z.array(stayGuestInput).min(1).max(10).optional(),
  reference: place(64).optional(),
}).refine(...timeRule);
export type StayEditBody = z.infer<typeof stayEditBody>;
export const stayIdBody = z.strictObject({ id: int4Id });
/** Gives guest `guestId` of stay `id` the card `cardNumber` (null: takes it back): every door adds it (and deletes the one it replaces). */
export const stayCardBody = z.strictObject({ id: int4Id, guestId: int4Id, cardNumber: cardNumber.nullable() });
export const stayChangeRoomBody = z.strictObject({ id: int4Id, room: stayRoom });

export const stayGuest = z.object({
  id: z.number().int(), name: z.string(), mobile: z.string(),
  /** Last four characters only ("**************123X"), or null. */
  idCardMasked: z.string().nullable(),
  /** The card the front desk issued (upper-case hex), or null. */
  cardNumber: z.string().nullable(),
});
/** One credential of a guest on a door: the lock user and its password, with their sync states (null: not created / removed). */
export const stayDoorCredential = z.object({
  guestId: z.number().int(), lockId: z.number().int(), lockName: z.string(), imei: z.string(),
  lockUserId: z.number().int().nullable(), userState: z.enum([...SYNC_STATES, 'deleted']).nullable(),
  credentialId: z.number().int().nullable(), credentialState: z.enum([...SYNC_STATES, 'deleted']).nullable(),
  /** The guest's card on this door (null: the guest has none, or it is not added yet). */
  cardCredentialId: z.number().int().nullable(), cardState: z.enum([...SYNC_STATES, 'deleted']).nullable(),
  /** The stay no longer wants this door (check-out, cancel, room change, guest removed): its delete was queued. */
  released: z.boolean(),
});
export const stayRecord = z.object({
  id: z.number().int(), building: z.string(), floor: z.string(), room: z.string(), kind: z.enum(STAY_KINDS), state: z.enum(STAY_STATES),
  checkInAt: z.string(), checkOutAt: z.string(), bufferBeforeMinutes: z.number().int(), bufferAfterMinutes: z.number().int(),
  reference: z.string().nullable(), guests: z.array(stayGuest),
  /** When the credentials were issued (null: not yet), and when the platform will issue them (check-in minus the lead time). */
  issuedAt: z.string().nullable(), issueDueAt: z.string(),
  readiness: z.enum(STAY_READINESS),
  /** Doors (lock x guest) whose credentials are not 正常 yet. */
  queuedDoors: z.number().int(), failedDoors: z.number().int(),
  createdBy: z.string(), createdAt: z.string(),
});
export type StayRecord = z.infer<typeof stayRecord>;
export const stayDetail = stayRecord.extend({ doors: z.array(stayDoorCredential) });
export type StayDetail = z.infer<typeof stayDetail>;

export const stayListQuery = pageQuery.extend({
  state: z.enum(STAY_STATES).optional(),
  building: place(64).optional(), floor: place(64).optional(), room: place(64).optional(),
  /** Stays overlapping [from, to]. */
  from: isoTime.optional(), to: isoTime.optional(),
  /** Guest name or mobile (substring), or the booking reference. */
  guest: keyword().optional(),
});

const W: Authority = 'VOUCHER_USER_MANAGE';
const R: readonly Authority[] = ['VOUCHER_USER_MANAGE', 'LOOK_INFO'];
const change = <B extends z.ZodType>(path: string, zh: string, en: string, body: B) =>
  endpoint({ method: 'POST', path: `/iot/v1/stay/${path}`, access: W, kind: 'token', body, response: stayRecord, action: { label: label(zh, en), target: ['id'], entity: 'stay' } });

export const stayEndpoints = {
  /** Books a stay; 409 when the room has an overlapping active stay, 400 when the room has no lock. Honours Idempotency-Key. */
  add: endpoint({ method: 'POST', path: '/iot/v1/stay/add', access: W, kind: 'token', idempotent: true, body: stayAddBody, response: stayRecord,
    action: { label: label('登记入住预订', 'Book a stay'), target: ['name'] } }),
  edit: change('edit', '修改入住', 'Edit a stay', stayEditBody),
  checkIn: change('checkIn', '办理入住', 'Check in', stayIdBody),
  checkOut: change('checkOut', '办理退房', 'Check out', stayIdBody),
  cancel: change('cancel', '取消预订', 'Cancel a stay', stayIdBody),
  noShow: change('noShow', '标记未到店', 'Mark no-show', stayIdBody),
  /** Suspends a checked-in long lease (overdue rent): every door's lock user is frozen; 409 for another state or kind. */
  suspend: change('suspend', '暂停租约', 'Suspend a lease', stayIdBody),
  /** Resumes a suspended lease: the doors' lock users are unfrozen; 409 unless SUSPENDED. */
  resume: change('resume', '恢复租约', 'Resume a lease', stayIdBody),
  changeRoom: change('changeRoom', '换房', 'Change room', stayChangeRoomBody),
  /** Issues (or takes back) a guest's card on every door of a booked or checked-in stay; 409 when another active stay's guest holds it. */
  card: change('card', '发放门卡', 'Issue a card', stayCardBody),
  list: endpoint({ method: 'GET', path: '/iot/v1/stay/list', access: R, kind: 'token', query: stayListQuery, response: pageOf(stayRecord) }),
  detail: endpoint({ method: 'GET', path: '/iot/v1/stay/detail', access: R, kind: 'token', query: z.object({ id: int4Id }), response: stayDetail }),
  /** Today's (data centre's day) booked stays whose credentials are not on every door yet, earliest check-in first. */
  notReady: endpoint({ method: 'GET', path: '/iot/v1/stay/notReady', access: R, kind: 'token', response: z.array(stayRecord) }),
  /** The booking import (api/stayImport.ts): template, dry run, commit. */
  ...stayImportEndpoints,
  /** Common doors (api/stayCommonDoor.ts): entrances, lifts and floor gates a room's stays are issued on too. */
  ...stayCommonDoorEndpoints,
  /** Backup codes for sleeping locks (api/stayBackupCode.ts): issue, a stay's codes, a lock's pool. */
  ...stayBackupCodeEndpoints,
};
