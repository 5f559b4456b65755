/**
 * 人员离职 preview: before confirming an offboarding, what it would revoke — per lock, the
 * person's lock users and their credentials by kind. The offboarding itself is credentialEndpoints.offboard.
 */
import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { offboardBody } from './credential.js';

/** Same person as the offboarding: by phone or by name (query string). */
export const offboardPreviewQuery = offboardBody;

export const offboardPreviewLock = z.object({
  lockId: z.number().int(),
  imei: z.string(),
  lockName: z.string(),
  /** The person's lock users on this lock: slot and name. */
  users: z.array(z.object({ id: z.number().int(), userSlot: z.number().int(), name: z.string() })),
  /** Their credentials on this lock (revoked with them). */
  passwords: z.number().int(),
  cards: z.number().int(),
  fingerprints: z.number().int(),
});
/** Empty `locks`: no lock user or credential of that person (nothing to revoke). */
export const offboardPreview = z.object({ locks: z.array(offboardPreviewLock) });
export type OffboardPreview = z.infer<typeof offboardPreview>;

export const offboardEndpoints = {
  preview: endpoint({
    method: 'GET', path: '/iot/v1/operateUser/offboardPreview', access: 'VOUCHER_USER_MANAGE', kind: 'token',
    query: offboardPreviewQuery, response: offboardPreview,
  }),
};
