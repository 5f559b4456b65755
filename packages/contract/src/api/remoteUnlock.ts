/**
 * Remote unlock where the lock can hear it: an operator opens a door now from the console.
 * Offered only for always-online locks (device type connectivity `alwaysOnline`: Wi-Fi, 4G Cat.1);
 * a sleeping NB-IoT lock hears the platform only just after its own uplinks, so the door would open
 * minutes later with nobody there: refused with `notOffered: 'sleeping'`. A reason is required. A door
 * marked high-security needs a second operator's approval within REMOTE_UNLOCK_APPROVAL_MS; only then
 * is the `remoteUnlock` downlink (Matter UnlockDoor) queued in the command outbox, and the lock's open
 * record names the requester (method `remote`, operator). Requester and approver are each a 系统日志
 * row and stay on the request. Authorities: LOCK_REMOTE_UNLOCK asks, LOCK_REMOTE_UNLOCK_APPROVE
 * approves and marks doors high-security; reads also with LOOK_INFO.
 */
import { z } from 'zod';
import { COMMAND_STATES } from '../protocol/index.js';
import { lockId } from './command.js';
import { endpoint } from './endpoint.js';
import { int4Id, text } from './input.js';
import { localized as label } from '../i18n.js';

/** How long a high-security request waits for a second operator, ms (10 minutes). */
export const REMOTE_UNLOCK_APPROVAL_MS = 10 * 60_000;
/** Why a lock offers no remote unlock: `sleeping` (NB-IoT power saving). */
export const REMOTE_UNLOCK_NOT_OFFERED = ['sleeping'] as const;
/**
 * Where a request stands: `awaitingApproval` (high-security, within the approval window), `expired`
 * (nobody approved in time), `sent` (the command is in the outbox: commandState says how far).
 */
export const REMOTE_UNLOCK_STATES = ['awaitingApproval', 'expired', 'sent'] as const;

export const remoteUnlockRecord = z.object({
  id: z.number().int(), lockId: z.number().int(), reason: z.string(),
  requestedBy: z.string(), requestedAt: z.string(),
  approvedBy: z.string().nullable(), approvedAt: z.string().nullable(),
  state: z.enum(REMOTE_UNLOCK_STATES),
  /** Approval deadline (ISO 8601 UTC) of a high-security request; null when none was needed. */
  approveBy: z.string().nullable(),
  commandId: z.number().int().nullable(),
  commandState: z.enum(COMMAND_STATES).nullable(),
  resultCode: z.number().int().nullable(),
});
export type RemoteUnlockRecord = z.infer<typeof remoteUnlockRecord>;

export const remoteUnlockOverview = z.object({
  lockId: z.number().int(),
  /** True for an always-online lock. */
  offered: z.boolean(),
  notOffered: z.enum(REMOTE_UNLOCK_NOT_OFFERED).nullable(),
  highSecurity: z.boolean(),
  /** The lock's latest 10 requests, newest first. */
  requests: z.array(remoteUnlockRecord),
});
export type RemoteUnlockOverview = z.infer<typeof remoteUnlockOverview>;

const U = 'LOCK_REMOTE_UNLOCK' as const;
const A = 'LOCK_REMOTE_UNLOCK_APPROVE' as const;

export const remoteUnlockEndpoints = {
  overview: endpoint({ method: 'GET', path: '/iot/v1/lockDevice/remoteUnlock', access: ['LOOK_INFO', U, A], kind: 'token', query: z.object({ lockId }), response: remoteUnlockOverview }),
  /** Asks to open the door now; 400 on `lockId` for a sleeping lock. */
  request: endpoint({ method: 'POST', path: '/iot/v1/lockDevice/remoteUnlock', access: U, kind: 'token',
    body: z.strictObject({ lockId, reason: text().trim().min(2).max(200) }), response: remoteUnlockRecord,
    action: { label: label('远程开锁', 'Remote unlock'), target: ['lockId'] }, stepUp: true }),
  /** A second operator (not the requester) approves a high-security request within its window. */
  approve: endpoint({ method: 'POST', path: '/iot/v1/lockDevice/remoteUnlock/approve', access: A, kind: 'token',
    body: z.strictObject({ id: int4Id }), response: remoteUnlockRecord,
    action: { label: label('批准远程开锁', 'Approve a remote unlock'), target: ['id'] }, stepUp: true }),
  /** Marks a door high-security (remote unlocks need a second operator) or not. */
  highSecurity: endpoint({ method: 'POST', path: '/iot/v1/lockDevice/remoteUnlock/highSecurity', access: A, kind: 'token',
    body: z.strictObject({ lockId, highSecurity: z.boolean() }), response: z.object({ lockId: z.number().int(), highSecurity: z.boolean() }),
    action: { label: label('设置高安全门', 'Set a high-security door'), target: ['lockId'] } }),
};
