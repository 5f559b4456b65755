/**
 * A client of the live stream over real HTTP (fetch + eventsource-parser), for the API tests, the
 * integration tests and bench/sse.ts: collects every message with the time it arrived, and says
 * when the server ended the stream.
 */
import { TENANT_HEADER, TOKEN_HEADER } from '@iot/contract';
import { createParser } from 'eventsource-parser';

export interface LiveMessage {
  id: string | undefined;
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the fields it asserts on
  data: any;
  /** performance.now() when it arrived. */
  at: number;
}

export interface LiveClient {
  status: number;
  headers: Headers;
  /** The body when the server refused (JSON envelope). */
  refusal?: { code: string; message: string };
  messages: LiveMessage[];
  /** Resolves when the server ended the stream (or the client closed it). */
  ended: Promise<void>;
  /** The first message from index `from` on (already arrived or to come) matching `predicate`; rejects after `ms`. */
  next(predicate: (message: LiveMessage) => boolean, ms?: number, from?: number): Promise<LiveMessage>;
  close(): void;
}

export interface OpenOptions {
  token?: string;
  tenantId?: number;
  ticket?: string;
  lastEventId?: string;
  /** As the Last-Event-ID header instead of the query. */
  lastEventIdHeader?: string;
  headers?: Record<string, string>;
}

/** Opens GET /iot/v1/events on `base` (http://host:port). */
export async function openLive(base: string, options: OpenOptions = {}): Promise<LiveClient> {
  const query = new URLSearchParams();
  if (options.ticket) query.set('ticket', options.ticket);
  if (options.lastEventId) query.set('lastEventId', options.lastEventId);
  const headers: Record<string, string> = { accept: 'text/event-stream', ...options.headers };
  if (options.token) headers[TOKEN_HEADER] = options.token;
  if (options.tenantId !== undefined) headers[TENANT_HEADER] = String(options.tenantId);
  if (options.lastEventIdHeader) headers['last-event-id'] = options.lastEventIdHeader;
  const abort = new AbortController();
  const response = await fetch(`${base}/iot/v1/events${query.size ? `?${query}` : ''}`, { headers, signal: abort.signal });
  const messages: LiveMessage[] = [];
  const waiters = new Set<() => void>();
  const notify = () => { for (const waiter of waiters) waiter(); };
  const client: LiveClient = {
    status: response.status,
    headers: response.headers,
    messages,
    ended: Promise.resolve(),
    close: () => abort.abort(),
    next(predicate, ms = 20_000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.slice(from).find(predicate);
          if (!found) return;
          cleanup();
          resolve(found);
        };
        const timer = setTimeout(() => { cleanup(); reject(new Error(`no matching message within ${ms} ms; got ${JSON.stringify(messages.map((m) => m.event))}`)); }, ms);
        const cleanup = () => { clearTimeout(timer); waiters.delete(check); };
        waiters.add(check);
        check();
      });
    },
  };
  if (response.status !== 200) {
    const body = await response.text();
    try {
      client.refusal = JSON.parse(body);
    } catch {
      client.refusal = { code: 'none', message: body };
    }
    return client;
  }
  const parser = createParser({
    onEvent: (event) => {
      messages.push({ id: event.id, event: event.event ?? 'message', data: JSON.parse(event.data), at: performance.now() });
      notify();
    },
  });
  const body = response.body;
  client.ended = (async () => {
    if (!body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body) parser.feed(decoder.decode(chunk, { stream: true }));
    } catch {
      /* aborted by close() */
    }
  })();
  return client;
}
