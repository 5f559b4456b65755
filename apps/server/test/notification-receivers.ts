/**
 * Fake receivers for the notification tests, at the HTTP and SMTP boundary: a real HTTP
 * server on 127.0.0.1 playing DingTalk, WeCom, Feishu and a customer's webhook, each checking the real
 * signature with its documented recipe (node:crypto here, not the platform's code), and a real SMTP
 * server (smtp-server) with a login. What each received, and whether its check passed, is kept.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received { path: string; query: URLSearchParams; headers: IncomingHttpHeaders; body: string; verified: boolean }
export const SECRETS = { dingtalk: 'SECdingtalk-secret-0001', wecom: 'wecom-key-00000000-1234', feishu: 'feishu-secret-abcd', webhook: 'whsec_webhook-secret-5678' };

function verify(path: string, query: URLSearchParams, headers: IncomingHttpHeaders, body: string): boolean {
  if (path === '/dingtalk') {
    const timestamp = query.get('timestamp') ?? '';
    const expected = createHmac('sha256', SECRETS.dingtalk).update(`${timestamp}\n${SECRETS.dingtalk}`).digest('base64');
    return query.get('sign') === expected && Math.abs(Date.now() - Number(timestamp)) < 3_600_000;
  }
  if (path === '/wecom') return query.get('key') === SECRETS.wecom;
  if (path === '/feishu') {
    const json = JSON.parse(body) as { timestamp: string; sign: string };
    return json.sign === createHmac('sha256', `${json.timestamp}\n${SECRETS.feishu}`).update('').digest('base64');
  }
  if (path === '/webhook') {
    const expected = createHmac('sha256', SECRETS.webhook).update(`${headers['x-iot-timestamp']}\n${headers['x-iot-nonce']}\n${body}`).digest('hex');
    return String(headers['x-iot-signature']).split(',').includes(`v1=${expected}`);
  }
  return false;
}

/** Starts the robots' fake server; each answers as its service does (errcode / code 0, or an error when the signature fails). */
export async function startRobots() {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const body = Buffer.concat(chunks).toString('utf8');
      const verified = verify(url.pathname, url.searchParams, request.headers, body);
      received.push({ path: url.pathname, query: url.searchParams, headers: request.headers, body, verified });
      const answer = url.pathname === '/feishu' ? { code: verified ? 0 : 19021, msg: verified ? 'success' : 'sign match fail' }
        : { errcode: verified ? 0 : 310000, errmsg: verified ? 'ok' : 'sign not match' };
      if (url.pathname === '/webhook') response.writeHead(verified ? 200 : 401).end();
      else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { received, url: (path: string) => `http://127.0.0.1:${port}${path}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export interface Mail { from: string; to: string[]; raw: string; user: string }

/** Starts an SMTP server on 127.0.0.1 (no TLS) accepting `user` / `password` only. */
export async function startSmtp(user: string, password: string) {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    secure: false, disabledCommands: ['STARTTLS'], allowInsecureAuth: true, authMethods: ['PLAIN', 'LOGIN'], logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) callback(null, { user });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'), user: String(session.user),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { mails, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
