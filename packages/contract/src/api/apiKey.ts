/**
 * API keys for integrators (docs/identity.md): per data centre, made by an
 * account manager (LOGIN_ACCOUNT) with a name, a scope (authority keys the creator holds), an expiry
 * and optionally the client networks (CIDR) allowed to use it. The key is shown once (`iotk_` + a
 * lookup id + `_` + 256 random bits, base64url) and stored as its SHA-256. Sent as
 * `Authorization: Bearer <key>`, it acts as a principal of its data centre holding its scope
 * intersected with the creator's current authorities there. Keys cannot call these routes.
 */
import { z } from 'zod';
import { AUTHORITIES } from '../authorities.js';
import { endpoint } from './endpoint.js';
import { int4Id, text } from './input.js';
import { isoTime } from './time.js';

/** The prefix every API key starts with (recognisable by secret scanners). */
export const API_KEY_PREFIX = 'iotk_';
/** The header an API key travels in, as `Bearer <key>` (RFC 6750). */
export const API_KEY_HEADER = 'authorization';
/** Longest grace of a rotated key, s (7 days); default 24 h. */
export const API_KEY_MAX_GRACE_S = 7 * 86_400;
export const API_KEY_DEFAULT_GRACE_S = 86_400;

/** An IPv4 or IPv6 network in CIDR notation (checked precisely on the server with ipaddr.js). */
const cidr = z.string().trim().min(3).max(49).regex(/^[0-9A-Fa-f:.]+\/\d{1,3}$/);

export const apiKeyCreateBody = z.strictObject({
  name: text().trim().min(1).max(64),
  authorities: z.array(z.enum(AUTHORITIES)).min(1).max(AUTHORITIES.length),
  /** When the key stops working; must lie in the future. */
  expiresAt: isoTime,
  /** Client networks allowed to use the key; empty or absent: any. */
  allowedNetworks: z.array(cidr).max(20).optional(),
});
export const apiKeyIdBody = z.strictObject({ id: int4Id });
export const apiKeyRotateBody = z.strictObject({
  id: int4Id,
  /** How long the replaced key keeps working, s (0: not at all; default 24 h). */
  graceS: z.number().int().min(0).max(API_KEY_MAX_GRACE_S).optional(),
});

/** What a key's state is now. */
export const API_KEY_STATES = ['active', 'expired', 'revoked'] as const;

export const apiKeyRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  /** `iotk_` + lookup id: how the key begins, to recognise it (not a secret). */
  prefix: z.string(),
  authorities: z.array(z.string()),
  allowedNetworks: z.array(z.string()),
  state: z.enum(API_KEY_STATES),
  createdBy: z.string(),
  /** ISO 8601 UTC. */
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** Until when the key replaced by the last rotation still works; null without one. */
  previousValidUntil: z.string().nullable(),
});
export type ApiKeyRecord = z.infer<typeof apiKeyRecord>;

/** A new or rotated key: the secret `key` is in this answer only. */
export const apiKeySecret = z.object({ id: z.number().int(), key: z.string(), prefix: z.string(), expiresAt: z.string() });

export const apiKeyEndpoints = {
  create: endpoint({
    method: 'POST', path: '/iot/v1/apiKey', access: 'LOGIN_ACCOUNT', kind: 'token',
    action: { label: { 'zh-CN': '创建 API 密钥', 'en-US': 'Create API key' }, target: ['name'] },
    body: apiKeyCreateBody, response: apiKeySecret, stepUp: true,
  }),
  list: endpoint({ method: 'GET', path: '/iot/v1/apiKey/list', access: 'LOGIN_ACCOUNT', kind: 'token', response: z.array(apiKeyRecord) }),
  revoke: endpoint({
    method: 'POST', path: '/iot/v1/apiKey/revoke', access: 'LOGIN_ACCOUNT', kind: 'token',
    action: { label: { 'zh-CN': '吊销 API 密钥', 'en-US': 'Revoke API key' }, target: ['id'] },
    body: apiKeyIdBody, response: z.null(),
  }),
  rotate: endpoint({
    method: 'POST', path: '/iot/v1/apiKey/rotate', access: 'LOGIN_ACCOUNT', kind: 'token',
    action: { label: { 'zh-CN': '轮换 API 密钥', 'en-US': 'Rotate API key' }, target: ['id'] },
    body: apiKeyRotateBody, response: apiKeySecret.extend({ previousValidUntil: z.string() }), stepUp: true,
  }),
};
