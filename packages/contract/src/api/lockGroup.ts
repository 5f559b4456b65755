/**
 * 分组管理: named lock groups per data centre (a building, a customer, a project); a lock may
 * be in several. And the DEVICE TARGET every bulk action takes (config push, export, OTA rollouts):
 * `{ groupId }` | `{ imeis }` | `{ filter }`, resolved on the server to the tenant's lock ids
 * (apps/server/src/modules/lockGroup/target.ts, docs/device-targets.md).
 */
import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery } from './envelope.js';
import { int4Id, keyword, TARGET_ONE, text } from './input.js';
import { lockFilterQuery } from './lock.js';
import { localized as label } from '../i18n.js';

/** Most IMEIs one target may list (a pasted list). */
export const DEVICE_TARGET_MAX_IMEIS = 10_000;

/**
 * Which locks a bulk action applies to: exactly one of
 * - `groupId`: the members of a lock group;
 * - `imeis`: these IMEIs (trimmed; ones the data centre does not have are reported back, not refused);
 * - `filter`: the locks 门锁信息 lists with these filters (its query parameters, as strings: `online: 'true'`).
 * Decommissioned locks and released IMEIs are never targeted (except a filter with `state: 'decommissioned'`/`'all'`).
 */
export const deviceTarget = z.strictObject({
  groupId: int4Id.optional(),
  imeis: z.array(text().trim().min(1).max(32)).min(1).max(DEVICE_TARGET_MAX_IMEIS).optional(),
  filter: z.strictObject(lockFilterQuery.shape).optional(),
}).refine((target) => [target.groupId, target.imeis, target.filter].filter((part) => part !== undefined).length === 1, { error: TARGET_ONE });
export type DeviceTarget = z.input<typeof deviceTarget>;

export const lockGroupRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  /** Member locks (decommissioned ones left out). */
  memberCount: z.number().int(),
  createdAt: z.string(),
});
export type LockGroupRecord = z.infer<typeof lockGroupRecord>;

export const lockGroupListQuery = pageQuery.extend({
  /** Name or description contains it. */
  keyword: keyword().optional(),
});

/** A group as a select shows it. */
export const lockGroupOption = z.object({ id: z.number().int(), name: z.string() });
export type LockGroupOption = z.infer<typeof lockGroupOption>;

const groupFields = {
  name: text().trim().min(1).max(64),
  description: text().trim().max(200).default(''),
};
export const lockGroupAddBody = z.strictObject(groupFields);
export const lockGroupUpdateBody = z.strictObject({ id: int4Id, ...groupFields });
const groupIdBody = z.strictObject({ id: int4Id });

export const lockGroupAddMembersBody = z.strictObject({ groupId: int4Id, target: deviceTarget });
/** What adding members did: locks newly added, locks already members, and listed IMEIs the data centre does not have. */
export const lockGroupAddMembersResponse = z.object({
  added: z.number().int(),
  alreadyMembers: z.number().int(),
  unknownImeis: z.array(z.string()),
});
export type LockGroupAddMembersResult = z.infer<typeof lockGroupAddMembersResponse>;
export const lockGroupRemoveMembersBody = z.strictObject({ groupId: int4Id, lockIds: z.array(int4Id).min(1).max(DEVICE_TARGET_MAX_IMEIS) });


export const lockGroupEndpoints = {
  /** The groups page; also the rollout form's group picker (固件管理, FIRMWARE_RULE). */
  list: endpoint({
    method: 'GET', path: '/iot/v1/lockGroup/list', access: ['LOOK_INFO', 'FIRMWARE_RULE'], kind: 'token', query: lockGroupListQuery, response: pageOf(lockGroupRecord),
  }),
  /** Every group of the data centre, by name (selects, filters). */
  /** Group picker (门锁信息's filter, 门锁配置's batch push). */
  options: endpoint({
    method: 'GET', path: '/iot/v1/lockGroup/options', access: ['LOOK_INFO', 'LOOK_CONFIG'], kind: 'token', response: z.array(lockGroupOption),
  }),
  add: endpoint({
    method: 'POST', path: '/iot/v1/lockGroup/add', access: 'LOCK_GROUP_EDIT', kind: 'token', body: lockGroupAddBody, response: lockGroupOption,
    action: { label: label('新建分组', 'Create group'), target: ['name'] },
  }),
  update: endpoint({
    method: 'POST', path: '/iot/v1/lockGroup/update', access: 'LOCK_GROUP_EDIT', kind: 'token', body: lockGroupUpdateBody, response: z.null(),
    action: { label: label('修改分组', 'Edit group'), target: ['id'], entity: 'group' },
  }),
  /** Deletes the group and its memberships (the locks stay). */
  delete: endpoint({
    method: 'POST', path: '/iot/v1/lockGroup/delete', access: 'LOCK_GROUP_EDIT', kind: 'token', body: groupIdBody, response: z.null(),
    action: { label: label('删除分组', 'Delete group'), target: ['id'], entity: 'group' },
  }),
  addMembers: endpoint({
    method: 'POST', path: '/iot/v1/lockGroup/addMembers', access: 'LOCK_GROUP_EDIT', kind: 'token', body: lockGroupAddMembersBody,
    response: lockGroupAddMembersResponse, action: { label: label('分组添加门锁', 'Add locks to group'), target: ['groupId'] },
  }),
  removeMembers: endpoint({
    method: 'POST', path: '/iot/v1/lockGroup/removeMembers', access: 'LOCK_GROUP_EDIT', kind: 'token', body: lockGroupRemoveMembersBody,
    response: z.object({ removed: z.number().int() }), action: { label: label('分组移除门锁', 'Remove locks from group'), target: ['groupId'] },
  }),
};
