/**
 * Common doors of stays (docs/stays.md "Common doors"): a lock marked `building` (an
 * entrance, a lift) serves every room of its building, one marked `floor` (a floor gate) every room of
 * its building's floor; a stay of such a room gets its guests' credentials on those doors too, with the
 * same window. Marking or unmarking a door makes every active stay it concerns look at its doors again
 * (the stays job adds or deletes the guests' users on that lock).
 */
import { z } from 'zod';
import type { Authority } from '../authorities.js';
import { lockId } from './command.js';
import { endpoint } from './endpoint.js';
import { keyword } from './input.js';
import { localized as label } from '../i18n.js';

export const COMMON_DOOR_SCOPES = ['building', 'floor'] as const;
export type CommonDoorScope = (typeof COMMON_DOOR_SCOPES)[number];

export const commonDoorRecord = z.object({
  lockId: z.number().int(),
  name: z.string(),
  imei: z.string(),
  building: z.string(),
  floor: z.string(),
  room: z.string(),
  commonDoor: z.enum(COMMON_DOOR_SCOPES),
});
export type CommonDoorRecord = z.infer<typeof commonDoorRecord>;

const R: readonly Authority[] = ['VOUCHER_USER_MANAGE', 'LOOK_INFO'];

export const stayCommonDoorEndpoints = {
  /** The data centre's common doors (of one building when `building` is given). */
  commonDoors: endpoint({ method: 'GET', path: '/iot/v1/stay/commonDoor/list', access: R, kind: 'token',
    query: z.object({ building: keyword(32).optional() }), response: z.array(commonDoorRecord) }),
  /** Marks a lock a common door of its building or floor, or (`null`) a room's own door again; 404 for a lock outside the data centre. */
  setCommonDoor: endpoint({ method: 'POST', path: '/iot/v1/stay/commonDoor', access: 'VOUCHER_USER_MANAGE', kind: 'token',
    body: z.strictObject({ lockId, commonDoor: z.enum(COMMON_DOOR_SCOPES).nullable() }),
    response: z.object({ lockId: z.number().int(), commonDoor: z.enum(COMMON_DOOR_SCOPES).nullable(), staysAffected: z.number().int() }),
    action: { label: label('设置公共门', 'Set a common door'), target: ['lockId'] } }),
};
