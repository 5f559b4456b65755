/** The JSON body of a push (docs/open-platform.md "Payload"): the same bytes for every secret, new per attempt only in its headers. */

/** What a body is made of (a claimed delivery). */
export interface PushBodyInput {
  eventId: string;
  eventType: string;
  code: string;
  tenantId: number;
  lockId: number | null;
  imei: string | null;
  /** ISO 8601 UTC. */
  occurredAt: string;
  data: unknown;
}

/** `{ eventId, eventType, customerCode, tenantId, occurredAt, lock: { id, imei } | null, data }` as JSON text. */
export function pushBody(input: PushBodyInput): string {
  return JSON.stringify({
    eventId: input.eventId,
    eventType: input.eventType,
    customerCode: input.code,
    tenantId: input.tenantId,
    occurredAt: input.occurredAt,
    lock: input.lockId === null ? null : { id: input.lockId, imei: input.imei },
    data: input.data,
  });
}
