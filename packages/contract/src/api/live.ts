/**
 * The console's live stream (docs/events.md "The live stream"): `GET /iot/v1/events`
 * answers `text/event-stream` with the domain events (events.ts) of the caller's data centre that
 * the caller's pages show (EVENT_AUDIENCE). A browser's EventSource cannot send headers, so it
 * first asks `POST /iot/v1/events/ticket` for a short-lived single-use ticket and passes it as
 * `?ticket=`; any other client sends zw_paas_token and tenantId as on every call.
 *
 * Each message: `id: <epoch>-<seq>` (this server instance's run and its event counter),
 * `event: <event name>`, `data: <json>` (LiveData). Besides the domain events, the stream sends
 * `ready` (once, first), `reset` (refetch everything: events were lost) and `closed` (the server
 * ends the stream, with why), and a comment line every LIVE_HEARTBEAT_MS.
 */
import { z } from 'zod';
import type { EventMap, EventName } from '../events.js';
import { endpoint } from './endpoint.js';
import { text } from './input.js';

/** A ticket is valid this long after it was issued, s (and once). */
export const LIVE_TICKET_TTL_S = 30;
/** A comment line keeps proxies from closing an idle stream this often, ms. */
export const LIVE_HEARTBEAT_MS = 15_000;
/** At most one message per event name per stream in this window; later events of the window are merged, ms. */
export const LIVE_COALESCE_MS = 1000;

/** The stream's own messages, besides the domain events (whose names hold a dot; these do not). */
export const LIVE_CONTROL_EVENTS = ['ready', 'reset', 'closed'] as const;
export type LiveControlEvent = (typeof LIVE_CONTROL_EVENTS)[number];

/**
 * `ready`: the stream is open (sent first, with an id to resume from). `resumed`: events after the
 * client's Last-Event-ID were replayed (false on a fresh stream).
 */
export const liveReady = z.object({ resumed: z.boolean() });
/**
 * `reset`: the client's Last-Event-ID cannot be resumed here (`unknown`: another instance or run,
 * `expired`: older than this instance keeps), the caller's authorities changed (`authorities`), or
 * this instance lost its database notifications for a while (`missed`): events may have been missed,
 * refetch everything shown.
 */
export const liveReset = z.object({ reason: z.enum(['unknown', 'expired', 'authorities', 'missed']) });
/**
 * `closed`: the server ends the stream. `signedOut`: the sign-in was revoked, expired or may no
 * longer use the data centre (a new ticket is refused); `shutdown`: this instance stops (reconnect);
 * `slow`: the client did not read its messages (reconnect and resume).
 */
export const liveClosed = z.object({ reason: z.enum(['signedOut', 'shutdown', 'slow']) });

/**
 * What a message of event K carries: the event's payload, or for several events of K merged in one
 * coalescing window, the latest payload with `merged` (how many) and the union of the locks and air
 * switches all of them touched (`lockIds`, `airSwitchIds`; see touchedDevices, api/liveDevices.ts).
 */
export type LiveData<K extends EventName = EventName> = EventMap[K] & { merged?: number; lockIds?: number[]; airSwitchIds?: number[] };

export const liveTicketResponse = z.object({
  /** Pass as `?ticket=` to GET /iot/v1/events within `expiresInS`; it works once. */
  ticket: z.string(),
  expiresInS: z.number().int(),
});

export const liveStreamQuery = z.object({
  /** A ticket from POST /iot/v1/events/ticket (instead of the zw_paas_token and tenantId headers). */
  ticket: text().max(100).optional(),
  /** Resume after this message id (as the Last-Event-ID header, which a new EventSource cannot set). */
  lastEventId: text().max(100).optional(),
});

export const liveEndpoints = {
  ticket: endpoint({ method: 'POST', path: '/iot/v1/events/ticket', access: 'authenticated', kind: 'token', response: liveTicketResponse }),
  stream: endpoint({
    method: 'GET', path: '/iot/v1/events', access: 'authenticated', kind: 'token', query: liveStreamQuery, response: z.string(), stream: 'text/event-stream',
  }),
};
