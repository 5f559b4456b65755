/**
 * A customer's receiver for the open-platform tests: a real HTTP server on 127.0.0.1
 * that checks each push with the documented recipe (node:crypto, not the platform's code), answers
 * the verification challenge, and can fail the next N pushes or all of them.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPush {
  headers: IncomingHttpHeaders;
  body: string;
  json: { eventId: string; eventType: string; customerCode: string; lock: { id: number; imei: string } | null; data: Record<string, unknown> };
  at: number;
}

/** True when one `v1=` signature of the push is HMAC-SHA256(secret, timestamp \n nonce \n body) (docs/open-platform.md). */
export function documentedCheck(headers: IncomingHttpHeaders, body: string, secret: string): boolean {
  const expected = createHmac('sha256', secret).update(`${headers['x-iot-timestamp']}\n${headers['x-iot-nonce']}\n${body}`).digest('hex');
  return String(headers['x-iot-signature']).split(',').some((part) => part.trim() === `v1=${expected}`);
}

export interface PushReceiver {
  url: (path?: string) => string;
  received: ReceivedPush[];
  /** Pushes answered 2xx (verification included). */
  accepted: () => ReceivedPush[];
  /** The next `n` pushes get 503. */
  failNext(n: number): void;
  /** Every push gets 503 (true) or is accepted (false). */
  failAll(on: boolean): void;
  close(): Promise<void>;
}

/** Starts a receiver; `/nochallenge` answers 200 without the challenge (a wrong endpoint). */
export async function startPushReceiver(): Promise<PushReceiver> {
  const received: ReceivedPush[] = [];
  const acceptedSet = new Set<ReceivedPush>();
  let failures = 0;
  let failing = false;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const push: ReceivedPush = { headers: request.headers, body, json: JSON.parse(body), at: Date.now() };
      received.push(push);
      if (failing || failures > 0) {
        failures = Math.max(0, failures - 1);
        response.writeHead(503).end('busy');
        return;
      }
      acceptedSet.add(push);
      const challenge = (push.json.data as { challenge?: string }).challenge;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(request.url === '/nochallenge' ? { ok: true } : { challenge }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    accepted: () => received.filter((push) => acceptedSet.has(push)),
    failNext: (n) => { failures = n; },
    failAll: (on) => { failing = on; },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
