/**
 * Requests started at start-up, before React has drawn anything: a signed-in page's first data
 * (app/earlyData.ts) is asked for while the console's code is still loading, instead of after the
 * console, the page and the language's words have loaded and rendered (the list's rows and the home
 * page's figures came last, bench/lighthouse.ts). `takeEarly` hands such a response, once, to the
 * client's first GET of the very same URL (api/client.ts); a response nobody took within
 * EARLY_TTL_MS is dropped, and a URL that no page asks for only costs one unused request. A response
 * is handed over only with the same token and data centre it was asked with (a switch of data centre
 * or a new sign-in in between never gets another one's answer).
 */
import { requestHeaders } from './transport';

/** How long an early response waits to be taken, ms (then the page's own request goes out). */
export const EARLY_TTL_MS = 30_000;

const pending = new Map<string, { response: Promise<Response>; at: number }>();

/** The key of `url` for the headers it goes out with now (token, data centre, language). */
const keyOf = (url: string) => `${url}\n${JSON.stringify(requestHeaders({ token: true, json: true }))}`;

/** Starts GET `url` (path and query, e.g. `/iot/v1/lockDevice/list?current=1&size=10`) with a token call's headers. */
export function startEarly(url: string): void {
  const key = keyOf(url);
  if (pending.has(key)) return;
  const response = fetch(url, { method: 'GET', headers: requestHeaders({ token: true, json: true }), credentials: 'same-origin' });
  // A failed early request is not an error of its own: the page sends its request again.
  response.catch(() => pending.delete(key));
  pending.set(key, { response, at: Date.now() });
}

/** The early response of GET `url`, once (undefined when none was started, it was taken, or it is too old). */
export function takeEarly(url: string): Promise<Response> | undefined {
  if (pending.size === 0) return undefined; // every GET asks: most find nothing, without building a key
  const key = keyOf(url);
  const entry = pending.get(key);
  if (!entry) return undefined;
  pending.delete(key);
  return Date.now() - entry.at <= EARLY_TTL_MS ? entry.response : undefined;
}
