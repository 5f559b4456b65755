/**
 * The fuzz's requests over a real TCP socket (node:http, one keep-alive agent) instead of in-process
 * `inject`, a new connection each. Load shedding judges the event loop's lag; with `inject` on PGlite, a run of
 * requests is one unbroken chain of promises that never lets the loop reach its timers (neither the
 * shedder's sampler nor the delay histogram ticks), so the first sample after it finds an empty
 * histogram and sheds as if the loop had stalled: 503s no real client would see. Over a socket every
 * request is a read from the network, as in production. A request node's HTTP client will not send
 * (a header value with control characters) is answered `undefined` and the caller injects it instead.
 */
import { Agent, request } from 'node:http';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

export interface SocketAnswer { statusCode: number; body: string }

/** A connection per request: the server closes one after a request it cannot parse (431, 400), and a kept-alive socket would then reset the next. */
const agent = new Agent({ keepAlive: false });

/** Sends `options` to 127.0.0.1:`port`; a 200 of a streaming route is closed after its headers (body ''). */
export function sendOverSocket(port: number, options: InjectOptions, stream: boolean): Promise<SocketAnswer | undefined> {
  const headers = { ...(options.headers as Record<string, string>) };
  const payload = options.payload === undefined ? undefined : Buffer.isBuffer(options.payload) ? options.payload : Buffer.from(String(options.payload));
  if (payload) headers['content-length'] = String(payload.length);
  return new Promise((resolve) => {
    let req: ReturnType<typeof request>;
    try {
      req = request({ host: '127.0.0.1', port, method: options.method, path: String(options.url), headers, agent }, (response) => {
        const statusCode = response.statusCode ?? 0;
        if (stream && statusCode === 200) {
          response.destroy();
          resolve({ statusCode, body: '' });
          return;
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ statusCode, body: Buffer.concat(chunks).toString() }));
        response.on('error', (error) => resolve({ statusCode: 0, body: error.message }));
      });
    } catch {
      resolve(undefined); // node refuses to send it (e.g. ERR_INVALID_CHAR in a header)
      return;
    }
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ statusCode: 0, body: `${error.code ?? ''} ${error.message}` }));
    req.end(payload);
  });
}

async function textOf(response: LightMyRequestResponse): Promise<string> {
  let text = '';
  for await (const chunk of response.stream()) text += String(chunk);
  return text;
}

/** Sends in process (`inject`); a stream stays open (until the app closes), any other answer of a streaming route is read whole. */
export async function sendInProcess(app: FastifyInstance, options: InjectOptions, stream: boolean): Promise<SocketAnswer> {
  const response = await app.inject({ ...options, ...(stream ? { payloadAsStream: true } : {}) });
  const body = !stream ? response.body : response.statusCode === 200 ? '' : await textOf(response);
  return { statusCode: response.statusCode, body };
}

/** Closes the agent's sockets (after the run, before the app closes). */
export function closeSockets(): void {
  agent.destroy();
}

/** Starts `app` listening on a free loopback port; answers the port. */
export async function listenOnLoopback(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}
