/**
 * An API endpoint described once: method, path, the authority it needs and its zod schemas.
 * The server registers its routes from these (and refuses a route without one); the web calls them.
 * Request bodies are strict (an unknown field is a 400), query strings are stripped (api/input.ts).
 */
import type { z } from 'zod';
import type { RouteAccess } from '../authorities.js';
import type { LocalizedText } from '../i18n.js';

/** Kinds of object a change's `id` names, whose name and changed fields the system log records. */
export const AUDIT_ENTITIES = ['tenant', 'lock', 'lockUser', 'credential', 'role', 'account', 'group', 'deviceType', 'firmwarePackage', 'rollout', 'command', 'airSwitch', 'product', 'customerCode', 'stay'] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

/**
 * What the system log calls a change: a readable name in both languages, and the fields of
 * the validated body naming its target (the first one present is the row's `target`). `entity`: what
 * an `id` target is (lockId, imei, accountId, groupId, productId and packageId say it themselves; `tenant`:
 * the request's data centre), so
 * the row records the object's name and, for an edit, the fields that changed.
 */
export interface AuditAction {
  label: LocalizedText;
  target?: readonly string[];
  entity?: AuditEntity;
}

export interface Endpoint<Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  access: RouteAccess;
  /**
   * `platform`: the call changes an object every data centre shares (packages, the demo receiver):
   * beyond `access`, only platform administrators (account type 0) may make it (
   * docs/authorities.md "Platform-wide objects"); others get 403 FORBIDDEN.
   */
  scope?: 'platform';
  /**
   * Accepts an `Idempotency-Key` header (IETF draft-ietf-httpapi-idempotency-key-header): the same key
   * and body from the same account and data centre within 24 h get the first answer again (status and
   * body, header `Idempotent-Replayed: true`); the same key with another body 422; while the first is
   * still running, a duplicate waits for its answer (409 if it takes too long). Money-moving and
   * credential-creating calls.
   */
  idempotent?: true;
  /**
   * Reachable by a session whose account must still enrol in two-factor (a role requires it; issue
   * #28): enrolment itself, the current user and sign-out. Every other call answers 403
   * TWO_FACTOR_ENROLMENT_REQUIRED to such a session.
   */
  duringEnrolment?: true;
  /**
   * A dangerous action (offboarding, remote unlock, decommission, secret reset,
   * refund, role and account changes, two-factor reset, API-key creation): a person's session whose
   * account has two-factor on needs a second factor verified within the last STEP_UP_WINDOW_MS
   * (POST /iot/v1/twoFactor/stepUp), else 403 STEP_UP_REQUIRED. Accounts without two-factor and API
   * keys (which cannot hold a second factor) are not asked.
   */
  stepUp?: true;
  /** `token`: JSON call with zw_paas_token; `tokenless`: sign-in style; `multipart`. Spec §7 call kinds. */
  kind: 'token' | 'tokenless' | 'multipart';
  query?: Q;
  body?: B;
  /**
   * A multipart endpoint's form: its text fields, parsed with `fields` (a strict object of
   * the contract's text rules: an unknown field or a control character is a 400), and one file part
   * named `file` of at most `maxBytes`, whose name follows uploadFileName.
   */
  upload?: { fields: z.ZodType; maxBytes: number };
  response: R;
  /**
   * Set on every call that changes something: the call is written to the system log in the same
   * transaction as the change. Calls without it are reads (whatever their method) and not logged.
   */
  action?: AuditAction;
  /** Set on an endpoint that answers a stream of this content type instead of one response (the live stream). */
  stream?: 'text/event-stream';
}

/** Declares an endpoint, keeping its schema types. */
export function endpoint<Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(e: Endpoint<Q, B, R>): Endpoint<Q, B, R> {
  return e;
}

/** Request query type of an endpoint. */
export type QueryOf<E> = E extends Endpoint<infer Q, z.ZodType, z.ZodType> ? z.input<Q> : never;
/** Request body type of an endpoint. */
export type BodyOf<E> = E extends Endpoint<z.ZodType, infer B, z.ZodType> ? z.input<B> : never;
/** Response data type of an endpoint. */
export type ResponseOf<E> = E extends Endpoint<z.ZodType, z.ZodType, infer R> ? z.output<R> : never;
