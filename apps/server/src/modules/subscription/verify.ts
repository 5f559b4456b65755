/**
 * The verification handshake of saveConfig (as OneNET's): a signed `verification` push
 * whose data carries a random challenge; the endpoint proves it is the customer's by answering 2xx
 * with the challenge in its body (plain, or JSON `{"challenge": "..."}`). A typo'd URL fails at once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type EgressPolicy, postJson } from './egress.js';
import { pushBody } from './payload.js';
import { signedHeaders } from './signing.js';

export interface Verification {
  verified: boolean;
  status: number | null;
  latencyMs: number;
  /** Why it failed (English; the route turns it into a 400). */
  error: string | null;
}

/** Sends the handshake to `url` signed with `secrets`. */
export async function verifyEndpoint(url: string, code: string, tenantId: number, secrets: readonly string[], policy: EgressPolicy): Promise<Verification> {
  const challenge = randomBytes(16).toString('hex');
  const eventId = randomUUID();
  const body = pushBody({ eventId, eventType: 'verification', code, tenantId, lockId: null, imei: null, occurredAt: new Date().toISOString(), data: { challenge } });
  const result = await postJson(url, signedHeaders({ customerCode: code, eventId, eventType: 'verification' }, body, secrets), body, policy);
  if (result.error) return { verified: false, status: result.status, latencyMs: result.latencyMs, error: result.error };
  if (!result.body.includes(challenge)) return { verified: false, status: result.status, latencyMs: result.latencyMs, error: 'the answer does not contain the challenge' };
  return { verified: true, status: result.status, latencyMs: result.latencyMs, error: null };
}
