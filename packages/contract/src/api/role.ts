/**
 * Roles (角色权限) and role bindings (绑定角色), spec §7 "Accounts and roles". A role is a
 * named set of authority keys in one tenant. Binding replaces an account's roles in the tenant.
 */
import { z } from 'zod';
import { keyword, text } from './input.js';
import { AUTHORITIES, type Authority } from '../authorities.js';
import { recordId } from './account.js';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery, sortFields } from './envelope.js';

/** Authority keys of a role: known keys only, duplicates dropped. */
export const roleAuthorities = z.array(z.enum(AUTHORITIES)).max(AUTHORITIES.length * 2).transform((keys) => [...new Set(keys)]);

const roleFields = {
  name: text().trim().min(1).max(32),
  description: text().trim().max(200).default(''),
  authorities: roleAuthorities,
  /** Members must sign in with two-factor; absent on an edit: unchanged. */
  requiresTwoFactor: z.boolean().optional(),
};

export const roleAddBody = z.strictObject(roleFields);
export const roleUpdateBody = z.strictObject({ id: recordId, ...roleFields });
export const roleIdBody = z.strictObject({ id: recordId });

/** Role list columns the server sorts by. */
export const ROLE_SORT_FIELDS = ['name', 'accountCount', 'createdAt'] as const;
/** 角色权限 lists roles; 登录账号 (new account's roles) and 绑定角色 pick them: each page's key opens the list. */
export const ROLE_PICKER_ACCESS: readonly Authority[] = ['ROLE_PERMISSIONS', 'LOGIN_ACCOUNT', 'BINDING_ROLES'];
export const roleListQuery = pageQuery.extend({
  /** Matches name or description (substring, case-insensitive). */
  keyword: keyword().optional(),
  ...sortFields(ROLE_SORT_FIELDS),
});

export const roleRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  authorities: z.array(z.enum(AUTHORITIES)),
  requiresTwoFactor: z.boolean(),
  /** Accounts bound to the role. */
  accountCount: z.number().int(),
  /** ISO 8601 UTC. */
  createdAt: z.string(),
});
export type RoleRecord = z.infer<typeof roleRecord>;

export const roleBindBody = z.strictObject({
  accountId: recordId,
  /** The account's roles in the tenant after the call (empty: none). */
  roleIds: z.array(recordId).max(100).transform((ids) => [...new Set(ids)]),
});

export const roleEndpoints = {
  list: endpoint({
    method: 'GET', path: '/v1/sysRole/queryAll', access: ROLE_PICKER_ACCESS, kind: 'token', query: roleListQuery, response: pageOf(roleRecord),
  }),
  add: endpoint({
    method: 'POST', path: '/v1/sysRole/add', access: 'ROLE_PERMISSIONS', kind: 'token', action: { label: { 'zh-CN': '新增角色', 'en-US': 'Add role' }, target: ['name'] },  body: roleAddBody, response: z.object({ id: z.number().int() }), stepUp: true,
  }),
  update: endpoint({
    method: 'POST', path: '/v1/sysRole/update', access: 'ROLE_PERMISSIONS', kind: 'token', action: { label: { 'zh-CN': '编辑角色', 'en-US': 'Edit role' }, target: ['id', 'name'], entity: 'role' },  body: roleUpdateBody, response: z.null(), stepUp: true,
  }),
  delete: endpoint({
    method: 'POST', path: '/v1/sysRole/delete', access: 'ROLE_PERMISSIONS', kind: 'token', action: { label: { 'zh-CN': '删除角色', 'en-US': 'Delete role' }, target: ['id'], entity: 'role' },  body: roleIdBody, response: z.null(), stepUp: true,
  }),
  bind: endpoint({
    method: 'POST', path: '/v1/sysUserRole/bind', access: 'BINDING_ROLES', kind: 'token', action: { label: { 'zh-CN': '绑定角色', 'en-US': 'Bind roles' }, target: ['accountId'] },  body: roleBindBody, response: z.null(), stepUp: true,
  }),
};
