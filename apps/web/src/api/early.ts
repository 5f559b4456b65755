/**
 * Requests started at start-up, before React has drawn anything: a signed-in page's first data
 * (app/earlyData.ts) is asked for while the console's code is still loading, instead of after the
 * console, the page and the language's words have loaded and rendered (the list's rows and the home
 * page's figures came last, bench/lighthouse.ts). `takeEarly` hands such a response, once, to the
 * client's first GET of the very same URL (api/client.ts); a response nobody took within
 * EARLY_TTL_MS is dropped, and a URL that no page asks for only costs one unused request.
 */
import { requestHeaders } from './transport';

/** How long an early response waits to be taken, ms (then the page's own request goes out). */
export const EARLY_TTL_MS = 30_000;

const pending = new Map<string, { response: Promise<Response>; at: number }>();

/** Starts GET `url` (path and query, e.g. `/iot/v1/lockDevice/list?current=1&size=10`) with a token call's headers. */
export function startEarly(url: string): void {
  if (pending.has(url)) return;
  const response = fetch(url, { method: 'GET', headers: requestHeaders({ token: true, json: true }), credentials: 'same-origin' });
  // A failed early request is not an error of its own: the page sends its request again.
  response.catch(() => pending.delete(url));
  pending.set(url, { response, at: Date.now() });
}

/** The early response of GET `url`, once (undefined when none was started, it was taken, or it is too old). */
export function takeEarly(url: string): Promise<Response> | undefined {
  const entry = pending.get(url);
  if (!entry) return undefined;
  pending.delete(url);
  return Date.now() - entry.at <= EARLY_TTL_MS ? entry.response : undefined;
}
