/**
 * Work orders (工单, docs/work-orders.md): a data centre's job on
 * one or more locks (replace a battery, inspect a tamper or an offline lock), opened by hand, from
 * selected alerts, or by a notification rule (`openWorkOrder`). States OPEN -> IN_PROGRESS -> DONE /
 * CANCELLED (WORK_ORDER_TRANSITIONS; any other move is a 409). Closing a battery order records the new
 * battery reading (%); the next heartbeat of its locks confirms it, or reopens the order.
 * Reading and handling need the 门锁警告 page's authority (LOCK_ALERT_LOG): the orders are its tab.
 */
import { z } from 'zod';
import type { LocalizedText } from '../i18n.js';
import { imeiSchema } from '../protocol/index.js';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery } from './envelope.js';
import { int4Id, int8Id, text } from './input.js';
import { isoTime, timeOrder } from './time.js';
import { localized as t } from '../i18n.js';


export const WORK_ORDER_KINDS = ['batteryReplacement', 'tamperInspection', 'offlineInspection', 'other'] as const;
export type WorkOrderKind = (typeof WORK_ORDER_KINDS)[number];
export const WORK_ORDER_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type WorkOrderPriority = (typeof WORK_ORDER_PRIORITIES)[number];
export const WORK_ORDER_STATES = ['OPEN', 'IN_PROGRESS', 'DONE', 'CANCELLED'] as const;
export type WorkOrderState = (typeof WORK_ORDER_STATES)[number];

/** The legal moves: state -> states it may go to (DONE may go back to OPEN only by a heartbeat that finds the battery still low). */
export const WORK_ORDER_TRANSITIONS: { readonly [S in WorkOrderState]: readonly WorkOrderState[] } = {
  OPEN: ['IN_PROGRESS', 'DONE', 'CANCELLED'],
  IN_PROGRESS: ['OPEN', 'DONE', 'CANCELLED'],
  DONE: [],
  CANCELLED: [],
};
/** True when an operator may move an order from `from` to `to`. */
export const canTransition = (from: WorkOrderState, to: WorkOrderState): boolean => WORK_ORDER_TRANSITIONS[from].includes(to);

/** Labels of kinds, priorities and states in both languages. */
export const WORK_ORDER_LABELS = {
  kinds: { batteryReplacement: t('更换电池', 'Battery replacement'), tamperInspection: t('防撬检查', 'Tamper inspection'), offlineInspection: t('离线检查', 'Offline inspection'), other: t('其他', 'Other') },
  priorities: { low: t('低', 'Low'), normal: t('普通', 'Normal'), high: t('高', 'High'), urgent: t('紧急', 'Urgent') },
  states: { OPEN: t('待处理', 'Open'), IN_PROGRESS: t('处理中', 'In progress'), DONE: t('已完成', 'Done'), CANCELLED: t('已取消', 'Cancelled') },
} as const satisfies { kinds: Record<WorkOrderKind, LocalizedText>; priorities: Record<WorkOrderPriority, LocalizedText>; states: Record<WorkOrderState, LocalizedText> };

/** A closed battery order is confirmed by a heartbeat reporting at least the recorded reading minus this, percentage points. */
export const BATTERY_CONFIRM_TOLERANCE = 10;
/** Locks and alerts one order links, at most. */
export const WORK_ORDER_LOCKS_MAX = 500;

const lockRef = z.union([int4Id, imeiSchema]);
const orderFields = {
  title: text().trim().min(1).max(100),
  kind: z.enum(WORK_ORDER_KINDS),
  priority: z.enum(WORK_ORDER_PRIORITIES).default('normal'),
  /** An account of the data centre; null: nobody yet. */
  assigneeId: int4Id.nullable().default(null),
  /** ISO 8601 with offset; null: no due time. */
  dueAt: isoTime.nullable().default(null),
  notes: text().trim().max(2000).default(''),
};
/** A new order: its locks by id or IMEI (number: lock id; 15 digits: IMEI). */
export const workOrderAddBody = z.strictObject({ ...orderFields, locks: z.array(lockRef).min(1).max(WORK_ORDER_LOCKS_MAX) });
/** An order from alerts: their locks; title and kind default from the first alert. */
export const workOrderFromAlertsBody = z.strictObject({
  alertIds: z.array(int8Id).min(1).max(WORK_ORDER_LOCKS_MAX),
  title: orderFields.title.optional(), kind: orderFields.kind.optional(), priority: orderFields.priority, assigneeId: orderFields.assigneeId,
  dueAt: orderFields.dueAt, notes: orderFields.notes,
});
export const workOrderEditBody = z.strictObject({ id: int8Id, ...orderFields });
export const workOrderTransitionBody = z.strictObject({
  id: int8Id, state: z.enum(WORK_ORDER_STATES),
  /** Closing a battery order: the new battery reading, % (required then). */
  battery: z.number().int().min(0).max(100).optional(),
  /** Appended to the order's notes. */
  note: text().trim().max(500).optional(),
});
export type WorkOrderAddBody = z.output<typeof workOrderAddBody>;
export type WorkOrderEditBody = z.output<typeof workOrderEditBody>;
export type WorkOrderTransitionBody = z.output<typeof workOrderTransitionBody>;
export type WorkOrderFromAlertsBody = z.output<typeof workOrderFromAlertsBody>;

export const workOrderQuery = pageQuery.extend({
  state: z.enum(WORK_ORDER_STATES).optional(), kind: z.enum(WORK_ORDER_KINDS).optional(), priority: z.enum(WORK_ORDER_PRIORITIES).optional(),
  assigneeId: int4Id.optional(), imei: imeiSchema.optional(), alertId: int8Id.optional(),
  /** Created at or after / at or before (ISO 8601 with offset). */
  startTime: isoTime.optional(), endTime: isoTime.optional(),
}).refine(...timeOrder);
export type WorkOrderQuery = z.output<typeof workOrderQuery>;

/** Photos one order keeps, at most, and the size of one, bytes (5 MiB: a phone's photo). */
export const WORK_ORDER_PHOTOS_MAX = 6;
export const WORK_ORDER_PHOTO_MAX_BYTES = 5 * 1024 * 1024;
/** The image formats a photo may have, recognised from its bytes (not its name or the client's type). */
export const WORK_ORDER_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** The photo upload's form: the order, then the file `file`. */
export const workOrderPhotoFields = z.strictObject({ workOrderId: int8Id });

const workOrderPhoto = z.object({
  id: z.number().int(), fileName: z.string(), contentType: z.enum(WORK_ORDER_PHOTO_TYPES), sizeBytes: z.number().int(),
  /** Pixels. */
  width: z.number().int(), height: z.number().int(),
  createdBy: z.string(), createdAt: z.string(),
});
export type WorkOrderPhoto = z.infer<typeof workOrderPhoto>;

export const workOrderRecord = z.object({
  id: z.number().int(), title: z.string(), kind: z.enum(WORK_ORDER_KINDS), priority: z.enum(WORK_ORDER_PRIORITIES), state: z.enum(WORK_ORDER_STATES),
  assigneeId: z.number().int().nullable(), assigneeName: z.string().nullable(), notes: z.string(),
  locks: z.array(z.object({ lockId: z.number().int(), imei: z.string(), lockName: z.string() })),
  alertIds: z.array(z.number().int()),
  /** Closing a battery order: the reading recorded, %; confirmedAt: when a heartbeat confirmed it. */
  battery: z.number().int().nullable(), confirmedAt: z.string().nullable(),
  /** `rule`: opened by a notification rule. */
  createdBy: z.string(),
  /** ISO 8601 UTC. */
  dueAt: z.string().nullable(), createdAt: z.string(), updatedAt: z.string(), closedAt: z.string().nullable(),
  /** Oldest first; the image itself: the `photo` endpoint. */
  photos: z.array(workOrderPhoto),
});
export type WorkOrderRecord = z.infer<typeof workOrderRecord>;

const ACCESS = 'LOCK_ALERT_LOG' as const;
const a = (zh: string, en: string) => ({ label: t(zh, en), target: ['id', 'title'] });

export const workOrderEndpoints = {
  /** Newest first. */
  list: endpoint({ method: 'GET', path: '/iot/v1/workOrder/list', access: ACCESS, kind: 'token', query: workOrderQuery, response: pageOf(workOrderRecord) }),
  /** Accounts of the data centre an order may be assigned to (id, username), by username. */
  assignees: endpoint({
    method: 'GET', path: '/iot/v1/workOrder/assignees', access: ACCESS, kind: 'token', response: z.array(z.object({ id: z.number().int(), username: z.string() })),
  }),
  detail: endpoint({ method: 'GET', path: '/iot/v1/workOrder/detail', access: ACCESS, kind: 'token', query: z.object({ id: int8Id }), response: workOrderRecord }),
  add: endpoint({ method: 'POST', path: '/iot/v1/workOrder/add', access: ACCESS, kind: 'token', action: a('新建工单', 'Add work order'), body: workOrderAddBody, response: workOrderRecord }),
  /** One order linking the alerts' locks (alerts of another data centre: 400 on alertIds). */
  fromAlerts: endpoint({
    method: 'POST', path: '/iot/v1/workOrder/fromAlerts', access: ACCESS, kind: 'token', action: { label: t('告警生成工单', 'Work order from alerts'), target: ['alertIds'] },
    body: workOrderFromAlertsBody, response: workOrderRecord,
  }),
  edit: endpoint({ method: 'POST', path: '/iot/v1/workOrder/edit', access: ACCESS, kind: 'token', action: a('编辑工单', 'Edit work order'), body: workOrderEditBody, response: workOrderRecord }),
  /** An illegal move is a 409 on `state`. */
  transition: endpoint({
    method: 'POST', path: '/iot/v1/workOrder/transition', access: ACCESS, kind: 'token', action: a('变更工单状态', 'Change work order state'),
    body: workOrderTransitionBody, response: workOrderRecord,
  }),
  /**
   * multipart: field `workOrderId`, then the image `file` (JPEG, PNG or WebP, at most
   * WORK_ORDER_PHOTO_MAX_BYTES; another format: 400 on body.file; the order's WORK_ORDER_PHOTOS_MAX-th
   * photo already there: 409 on body.file). Answers the order with its photos.
   */
  addPhoto: endpoint({
    method: 'POST', path: '/iot/v1/workOrder/photo/add', access: ACCESS, kind: 'multipart', response: workOrderRecord,
    upload: { fields: workOrderPhotoFields, maxBytes: WORK_ORDER_PHOTO_MAX_BYTES }, action: { label: t('添加工单照片', 'Add work order photo') },
  }),
  /** The image's bytes with its content type (the console shows them through an object URL). */
  photo: endpoint({ method: 'GET', path: '/iot/v1/workOrder/photo', access: ACCESS, kind: 'token', query: z.object({ id: int8Id }), response: z.unknown() }),
  deletePhoto: endpoint({
    method: 'POST', path: '/iot/v1/workOrder/photo/delete', access: ACCESS, kind: 'token', action: { label: t('删除工单照片', 'Delete work order photo'), target: ['id'] },
    body: z.strictObject({ id: int8Id }), response: workOrderRecord,
  }),
};
