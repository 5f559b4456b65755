/**
 * Login accounts (登录账号, spec §7 "Accounts and roles"). Accounts belong to tenants and are
 * managed in the request's tenant. A new password travels RSA-OAEP encrypted under the key from
 * /oauth/key, exactly as at sign-in. Bodies are strict: fields a caller may not set (type, tenantId,
 * passwordHash, id on create) are refused with 400.
 */
import { z } from 'zod';
import { int4Id, keyword, text } from './input.js';
import { AUTHORITIES } from '../authorities.js';
import { USERNAME_MAX } from '../constants.js';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery, sortFields } from './envelope.js';

/** Letters (any script), digits and `_ . @ -`. */
export const usernameSchema = text().trim().min(2).max(USERNAME_MAX).regex(/^[\p{L}\p{N}_.@-]+$/u);
/** A database id in a body or query. */
export const recordId = int4Id;

/** base64(RSA-OAEP-SHA-256(password)) and the id of the key it was encrypted with. */
const encryptedPassword = {
  password: text().min(1).max(1024),
  keyId: text().min(1).max(64),
};

/**
 * A new operator; `roleIds`: roles of the request's tenant bound at once (needs BINDING_ROLES too, no
 * escalation); `tenantIds`: further data centres it may work in besides the request's (each one the
 * caller may use and holds LOGIN_ACCOUNT in; administrators: any).
 */
export const accountAddBody = z.strictObject({
  username: usernameSchema, ...encryptedPassword, roleIds: z.array(recordId).max(50).optional(), tenantIds: z.array(recordId).max(50).optional(),
});
export const accountPasswordBody = z.strictObject({ id: recordId, ...encryptedPassword });
export const accountIdBody = z.strictObject({ id: recordId });
export const accountEnableBody = z.strictObject({ id: recordId, enabled: z.boolean() });

/** Account list columns the server sorts by. */
export const ACCOUNT_SORT_FIELDS = ['username', 'createdAt'] as const;
export const accountListQuery = pageQuery.extend({
  /** Matches the username (substring, case-insensitive). */
  keyword: keyword().optional(),
  ...sortFields(ACCOUNT_SORT_FIELDS),
});

const idName = z.object({ id: z.number().int(), name: z.string() });

export const accountRecord = z.object({
  id: z.number().int(),
  username: z.string(),
  /** 0 administrator, 1 operator (spec §6). */
  type: z.number().int(),
  enabled: z.boolean(),
  homeTenantId: z.number().int(),
  /** Every tenant the account may work in. */
  tenants: z.array(idName),
  /** Roles bound in the request's tenant. */
  roles: z.array(idName),
  /** Two-factor sign-in is on: an account manager may reset it (POST /iot/v1/twoFactor/reset). */
  twoFactorEnabled: z.boolean(),
  /** ISO 8601 UTC. */
  createdAt: z.string(),
});
export type AccountRecord = z.infer<typeof accountRecord>;

export const accountRolesQuery = z.object({ accountId: recordId });

export const roleChoice = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  authorities: z.array(z.enum(AUTHORITIES)),
});

export const accountRolesResponse = z.object({
  accountId: z.number().int(),
  /** Roles bound to the account in the request's tenant. */
  bound: z.array(idName),
  /** Every role of the tenant, to choose from. */
  roles: z.array(roleChoice),
});

export const accountEndpoints = {
  add: endpoint({
    method: 'POST', path: '/v1/account/add/user', access: 'LOGIN_ACCOUNT', kind: 'token', action: { label: { 'zh-CN': '新增账号', 'en-US': 'Add account' }, target: ['username'] },
    body: accountAddBody, response: z.object({ id: z.number().int() }), stepUp: true,
  }),
  /** The role-binding page lists accounts too, so either key opens this call. */
  list: endpoint({
    method: 'GET', path: '/v1/account/queryAll', access: ['LOGIN_ACCOUNT', 'BINDING_ROLES'], kind: 'token',
    query: accountListQuery, response: pageOf(accountRecord),
  }),
  delete: endpoint({
    method: 'POST', path: '/v1/account/delete/user', access: 'LOGIN_ACCOUNT', kind: 'token', action: { label: { 'zh-CN': '删除账号', 'en-US': 'Delete account' }, target: ['id'], entity: 'account' },  body: accountIdBody, response: z.null(), stepUp: true,
  }),
  editPassword: endpoint({
    method: 'POST', path: '/v1/account/edit/password', access: 'LOGIN_ACCOUNT', kind: 'token', action: { label: { 'zh-CN': '修改密码', 'en-US': 'Change password' }, target: ['id'], entity: 'account' },  body: accountPasswordBody, response: z.null(), stepUp: true,
  }),
  enable: endpoint({
    method: 'POST', path: '/v1/account/enable', access: 'LOGIN_ACCOUNT', kind: 'token', action: { label: { 'zh-CN': '启用/停用账号', 'en-US': 'Enable/disable account' }, target: ['id'], entity: 'account' },  body: accountEnableBody, response: z.null(), stepUp: true,
  }),
  queryRoles: endpoint({
    method: 'GET', path: '/v1/account/queryRoles', access: 'BINDING_ROLES', kind: 'token',
    query: accountRolesQuery, response: accountRolesResponse,
  }),
};
