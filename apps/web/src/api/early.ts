/**
 * Requests started at start-up, before React has drawn anything: a signed-in page's first data
 * (app/earlyData.ts) is asked for while the console's code is still loading, instead of after the
 * console, the page and the language's words have loaded and rendered (the list's rows and the home
 * page's figures came last, bench/lighthouse.ts). `takeEarly` hands such a response, once, to the
 * client's first GET of the very same URL (api/client.ts); a response nobody took within
 * EARLY_TTL_MS is dropped, and a URL that no page asks for only costs one unused request. A response
 * is handed over only with the same token and data centre it was asked with (a switch of data centre
 * or a new sign-in in between never gets another one's answer).
 *
 * An early answer that has already arrived by the time its page renders is handed over synchronously
 * (`takeEarlyData`, api/useApiQuery.ts): the list's first render then has its rows, and the table fits
 * its columns in that one frame instead of mounting empty, asking, waiting a turn and mounting again
 * (the lock list's largest paint came ~0.3 s after its first commit, bench/lighthouse.ts).
 */
import { keepRotatedToken, requestHeaders } from './transport';

/** How long an early response waits to be taken, ms (then the page's own request goes out). */
export const EARLY_TTL_MS = 30_000;

/** An early request: its response, when it was sent, and, once it has arrived as a success envelope, its `data` and headers. */
interface Early { response: Promise<Response>; at: number; settled?: { data: unknown; headers: Headers } }
const pending = new Map<string, Early>();

/** The `data` of a success envelope in `text`, else undefined. */
function successData(text: string): { data: unknown } | undefined {
  try {
    const body = JSON.parse(text) as { success?: unknown; code?: unknown; data?: unknown };
    return body && body.success === true && 'code' in body ? { data: body.data } : undefined;
  } catch {
    return undefined;
  }
}

/** The key of `url` for the headers it goes out with now (token, data centre, language). */
const keyOf = (url: string) => `${url}\n${JSON.stringify(requestHeaders({ token: true, json: true }))}`;

/** Starts GET `url` (path and query, e.g. `/iot/v1/lockDevice/list?current=1&size=10`) with a token call's headers. */
export function startEarly(url: string): void {
  const key = keyOf(url);
  if (pending.has(key)) return;
  const response = fetch(url, { method: 'GET', headers: requestHeaders({ token: true, json: true }), credentials: 'same-origin' });
  // A failed early request is not an error of its own: the page sends its request again.
  response.catch(() => pending.delete(key));
  const entry: Early = { response, at: Date.now() };
  pending.set(key, entry);
  // Read a copy as it arrives: a page rendering after that takes the data at once (takeEarlyData).
  void response.then(async (answer) => {
    if (!answer.ok) return;
    const found = successData(await answer.clone().text());
    if (found) entry.settled = { data: found.data, headers: answer.headers };
  }).catch(() => undefined);
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

/**
 * The `data` of the early GET `url` when its success answer has already arrived, once (the entry is
 * taken, its rotated token kept); undefined when there is none, it is still on its way (the page's
 * request then takes the response: takeEarly) or it is too old.
 */
export function takeEarlyData(url: string): { data: unknown } | undefined {
  if (pending.size === 0) return undefined;
  const key = keyOf(url);
  const entry = pending.get(key);
  if (!entry?.settled) return undefined;
  pending.delete(key);
  if (Date.now() - entry.at > EARLY_TTL_MS) return undefined;
  keepRotatedToken(entry.settled.headers);
  return { data: entry.settled.data };
}
