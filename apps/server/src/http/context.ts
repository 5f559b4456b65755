/**
 * What a request knows about its caller once the auth hook has run: the principal (account, type,
 * authorities in the chosen tenant) and the tenant id from the `tenantId` header (spec §7).
 */
import type { AuditAction, Authority, Endpoint, ErrorCode, RouteAccess } from '@iot/contract';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { Claim } from './idempotency.js';
import type { ResponseKind } from './openapi.js';

export interface Principal {
  accountId: number;
  username: string;
  /** 0 administrator (spec §6). */
  type: number;
  /** Authorities in the request's tenant; every key for administrators. */
  authorities: ReadonlySet<Authority>;
  /** Session row of the presented token (0 for an API key). */
  sessionId: number;
  /** Sign-in the token belongs to (`apiKey:<id>` for a key). */
  family: string;
  /** Set when the caller is an API key: it acts for `accountId`, its creator, within its scope. */
  apiKey?: { id: number; name: string };
}

/** One registered route as the auth hook saw it (the live route table). */
export interface RouteInfo {
  method: string;
  url: string;
  access: RouteAccess;
  /** `platform`: only platform administrators may call it (contract Endpoint.scope). */
  scope?: 'platform';
}

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    config: Config;
    /** Every route registered so far, with its access (filled by the auth plugin's onRoute hook). */
    routeTable: RouteInfo[];
  }
  interface FastifyRequest {
    principal?: Principal;
    /** From the tenantId header; defaults to 100. */
    tenantId: number;
    /** The error code the request failed with, set by the error handler (system log result). */
    errorCode?: ErrorCode;
    /** True once the call's system-log row is written (http/audit-plugin.ts). */
    audited: boolean;
    /** The Idempotency-Key this request claimed (registerEndpoint), until its answer is stored (idempotency-plugin.ts). */
    idempotency?: Claim;
  }
  interface FastifyContextConfig {
    /** The authority the route needs; routes without it are refused at registration (deny by default). */
    access?: RouteAccess;
    /** `platform`: beyond `access`, only platform administrators (type 0) may call it. */
    scope?: 'platform';
    /** The contract endpoint the route serves (registerEndpoint), for the OpenAPI document. */
    endpoint?: Endpoint;
    /** How the route answers (envelope, raw data or a file), for the OpenAPI document. */
    response?: ResponseKind;
    /** The contract's system-log action of a changing call; absent on reads and on routes writing their own row. */
    action?: AuditAction;
    /**
     * A route that also takes a single-use ticket (`?ticket=`) instead of the token headers (the
     * live stream, for EventSource): redeems it; undefined when it is unknown, used or expired.
     */
    redeemTicket?: (request: FastifyRequest, ticket: string) => Promise<{ principal: Principal; tenantId: number } | undefined>;
  }
}
