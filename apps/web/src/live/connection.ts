/**
 * The console's one live stream per browser tab (docs/events.md "The live stream"): a
 * ticket first (POST /iot/v1/events/ticket, a normal token call: an ended session signs out as on
 * any call), then an EventSource on GET /iot/v1/events?ticket=...&lastEventId=... . A ticket works
 * once, so the browser's own reconnect cannot be used: on an error or `closed` the stream is closed
 * and opened again with a fresh ticket after a growing delay (1 s doubling to 30 s, with jitter),
 * resuming after the last id seen. A tab hidden for PAUSE_HIDDEN_MS closes its stream (browsers
 * allow six connections per server over HTTP/1.1) and resumes when shown again.
 *
 * State (useLiveState): `off` (signed out), `connecting`, `live`, `down` (polling stands in).
 */
import { liveEndpoints } from '@iot/contract';
import { call } from '../api/client';
import type { Invalidator } from './invalidate';
import { LIVE_EVENT_NAMES } from './livePaths';

export type LiveState = 'off' | 'connecting' | 'live' | 'down';

const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;
/** A hidden tab keeps its stream this long, ms. */
const PAUSE_HIDDEN_MS = 60_000;

let state: LiveState = 'off';
let lastEventAt: number | undefined;
const listeners = new Set<() => void>();

function setState(next: LiveState): void {
  if (state === next) return;
  state = next;
  for (const listener of listeners) listener();
}

/** The stream's state now. */
export function liveState(): LiveState {
  return state;
}

/** When the last domain event arrived (ms since the epoch), for the header's tooltip. */
export function lastLiveEventAt(): number | undefined {
  return lastEventAt;
}

/** Subscribes to state changes; returns the unsubscribe function. */
export function subscribeLive(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Opens the stream and keeps it open until the returned function is called (sign-out, another data centre).
 * `loadInvalidator` brings the event -> refresh rules (invalidate.ts, a separate chunk with the endpoint tables
 * it names): asked once the first ticket is in (after the page's own code and data, which it would slow), awaited
 * before the stream opens, so no event arrives before it is there; it loads once.
 */
export function startLive(loadInvalidator: () => Promise<Invalidator>): () => void {
  let invalidator: Invalidator | undefined;
  let source: EventSource | undefined;
  let stopped = false;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let hiddenTimer: ReturnType<typeof setTimeout> | undefined;
  let lastEventId: string | undefined;

  const track = (event: MessageEvent) => {
    if (event.lastEventId) lastEventId = event.lastEventId;
  };
  const drop = () => {
    source?.close();
    source = undefined;
  };
  const retry = () => {
    drop();
    if (stopped || document.hidden) return;
    setState('down');
    const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** attempt) * (0.5 + Math.random() / 2);
    attempt += 1;
    clearTimeout(timer);
    timer = setTimeout(() => void connect(), delay);
  };

  async function connect(): Promise<void> {
    if (stopped || source) return;
    let ticket: string;
    let ready: Invalidator;
    try {
      ticket = (await call(liveEndpoints.ticket, { background: true, quiet: true })).ticket;
      ready = await loadInvalidator();
    } catch {
      retry(); // an ended session has signed out by now (api/client.ts); a chunk that failed to load is asked again
      return;
    }
    invalidator = ready;
    if (stopped || source) return;
    const query = new URLSearchParams({ ticket, ...(lastEventId ? { lastEventId } : {}) });
    const opened = new EventSource(`${liveEndpoints.stream.path}?${query}`);
    source = opened;
    opened.addEventListener('ready', (event) => {
      track(event);
      attempt = 0;
      setState('live');
    });
    opened.addEventListener('reset', (event) => {
      track(event);
      ready.refreshAll();
    });
    opened.addEventListener('closed', () => retry());
    for (const name of LIVE_EVENT_NAMES) {
      opened.addEventListener(name, (event) => {
        track(event);
        lastEventAt = Date.now();
        ready.receive(name, JSON.parse(event.data));
      });
    }
    opened.onerror = () => {
      if (source === opened) retry();
    };
  }

  const onVisibility = () => {
    clearTimeout(hiddenTimer);
    if (document.hidden) {
      hiddenTimer = setTimeout(() => {
        drop();
        clearTimeout(timer);
        setState('down');
      }, PAUSE_HIDDEN_MS);
    } else if (!source) {
      attempt = 0;
      void connect();
    }
  };
  document.addEventListener('visibilitychange', onVisibility);
  setState('connecting');
  void connect();

  return () => {
    stopped = true;
    clearTimeout(timer);
    clearTimeout(hiddenTimer);
    document.removeEventListener('visibilitychange', onVisibility);
    drop();
    invalidator?.clear();
    setState('off');
  };
}
