/**
 * A request the server shed (503 with Retry-After: http/load-shedding.ts answers it before any
 * handler runs, so nothing was done) is sent again after the wait the server asked for, at most
 * SHED_RETRIES times, each wait capped at SHED_WAIT_MAX_MS. Any method may be resent: a shed write
 * never reached its handler. Other 503s (no Retry-After) are answers like any other.
 */

/** Times a shed request is sent again. */
export const SHED_RETRIES = 2;
/** Longest wait before sending again, ms. */
export const SHED_WAIT_MAX_MS = 5_000;

/** The wait before resending `response`, ms, or undefined when it is not a shed request. */
export function shedWaitMs(response: Pick<Response, 'status' | 'headers'>): number | undefined {
  if (response.status !== 503) return undefined;
  const header = response.headers.get('retry-after');
  if (header === null) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, SHED_WAIT_MAX_MS) : SHED_WAIT_MAX_MS;
}

/** Resolves after `ms`, or rejects with the signal's reason once it aborts. */
export function waitUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(timer); reject(signal?.reason); };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Calls `attempt` and, while it answers a shed 503 and retries are left, waits and calls it again.
 * Answers the last response (a still-shed one included, for the caller's usual error handling).
 */
export async function resendWhileShed(attempt: () => Promise<Response>, signal?: AbortSignal): Promise<Response> {
  let response = await attempt();
  for (let retry = 0; retry < SHED_RETRIES; retry++) {
    const wait = shedWaitMs(response);
    if (wait === undefined) return response;
    await waitUnlessAborted(wait, signal);
    response = await attempt();
  }
  return response;
}
