/**
 * An API endpoint described once: method, path, the authority it needs and its zod schemas.
 * The server registers its routes from these (and refuses a route without one); the web calls them.
 * Request bodies are strict (an unknown field is a 400), query strings are stripped (api/input.ts).
 */
import type { z } from 'zod';
import type { RouteAccess } from '../authorities.js';
import type { LocalizedText } from '../i18n.js';

/**
 * What the system log calls a change (issue #10): a readable name in both languages, and the fields of
 * the validated body naming its target (the first one present is the row's `target`).
 */
export interface AuditAction {
  label: LocalizedText;
  target?: readonly string[];
}

export interface Endpoint<Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  access: RouteAccess;
  /** `token`: JSON call with zw_paas_token; `tokenless`: sign-in style; `multipart`. Spec §7 call kinds. */
  kind: 'token' | 'tokenless' | 'multipart';
  query?: Q;
  body?: B;
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
