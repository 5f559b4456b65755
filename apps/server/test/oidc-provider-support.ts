/**
 * A real OpenID provider in the test process (oidc-provider): one
 * confidential client with the console's redirect URI, PKCE required, dev interactions (any login
 * name signs in as that person, then a consent page). `people` give each login name its claims
 * (groups in the `groups` scope, so they come from UserInfo, not the ID token). `signInAt` drives a
 * browser's way through it with fetch and a cookie jar: from the authorization URL over the login and
 * consent forms to the redirect back, whose query string it returns. Back-channel logout:
 * the client's backchannel_logout_uri is `<issuer>/rp/backchannel` on the provider's own server, which
 * relays the provider's post to `backchannel` (the test hands it to the platform); `signOut` ends a
 * person's provider session as its browser would; `sign` makes any JWT with the provider's key.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import Provider from 'oidc-provider';

export const CLIENT_ID = 'iot-console';
export const CLIENT_SECRET = 'test-client-secret-0123456789';
export const REDIRECT_URI = 'http://localhost:5173/api/login';

export interface TestProvider {
  issuer: string;
  /** Signs `login` in at `authorizationUrl`; the query string the provider sends the browser back with. */
  signInAt(authorizationUrl: string, login: string): Promise<string>;
  /** Ends `login`'s session at the provider (its last signInAt's cookies), as "Yes, sign me out" does. */
  signOut(login: string): Promise<void>;
  /** Where the provider's back-channel logout posts are relayed: the form body; answers the status to give back. */
  backchannel: (form: string) => Promise<number>;
  /** A JWT signed with the provider's signing key (kid `test-key`, RS256). */
  sign(claims: JWTPayload, typ?: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts the provider on a free port of 127.0.0.1 for a console at `redirectUri` (the e2e server's
 * sign-in page; the API tests never load it). A login name missing from `people` gets only its name.
 */
export async function startProvider(people: Record<string, Record<string, unknown>>, redirectUri = REDIRECT_URI): Promise<TestProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const provider = new Provider(issuer, {
    clients: [{
      client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [redirectUri], post_logout_redirect_uris: [redirectUri],
      grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic',
      backchannel_logout_uri: `${issuer}/rp/backchannel`, backchannel_logout_session_required: true,
    }],
    jwks: { keys: [jwk] },
    // Its outgoing requests refuse loopback addresses (SSRF protection); the relay below is one.
    fetch: (url: string | URL | Request, options?: RequestInit) => fetch(url, { ...options, dispatcher: undefined } as RequestInit),
    claims: { openid: ['sub'], profile: ['preferred_username', 'name'], email: ['email'], groups: ['groups'] },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, preferred_username: sub, ...people[sub] }) }),
    features: { devInteractions: { enabled: true }, backchannelLogout: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ['test-cookie-key'] },
  });
  const relay: Pick<TestProvider, 'backchannel'> = { backchannel: async () => 404 };
  const callback = provider.callback();
  server.on('request', (request, response) => {
    if (request.url !== '/rp/backchannel') return callback(request, response);
    let form = '';
    request.on('data', (chunk) => { form += chunk; });
    request.on('end', () => void relay.backchannel(form).then((status) => response.writeHead(status).end()));
  });
  const jars = new Map<string, Map<string, string>>();
  const cookieOf = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

  const signInAt = async (authorizationUrl: string, login: string) => {
    const jar = new Map<string, string>();
    jars.set(login, jar);
    let url = authorizationUrl;
    let init: RequestInit = {};
    for (let step = 0; step < 12; step++) {
      const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as object), cookie: cookieOf(jar) } });
      for (const cookie of response.headers.getSetCookie()) {
        const [pair = ''] = cookie.split(';');
        const at = pair.indexOf('=');
        jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const location = response.headers.get('location');
      if (location) {
        const next = new URL(location, url).href;
        if (next.startsWith(redirectUri)) return new URL(next).search;
        url = next;
        init = {};
        continue;
      }
      const html = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
      if (!action || !prompt) throw new Error(`unexpected page at ${url}: ${response.status} ${html.slice(0, 300)}`);
      const form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
      url = new URL(action, url).href;
      init = { method: 'POST', body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    }
    throw new Error('the provider did not send the browser back');
  };
  const signOut = async (login: string) => {
    const cookie = cookieOf(jars.get(login) ?? new Map());
    const page = await (await fetch(`${issuer}/session/end?client_id=${CLIENT_ID}`, { headers: { cookie } })).text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page)?.[1];
    if (!action || !xsrf) throw new Error(`unexpected logout page: ${page.slice(0, 300)}`);
    const done = await fetch(new URL(action, issuer), {
      method: 'POST', redirect: 'manual', body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    });
    if (done.status >= 400) throw new Error(`the provider refused the sign-out: ${done.status}`);
  };
  const sign = (claims: JWTPayload, typ = 'logout+jwt') => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test-key', typ }).sign(privateKey);
  return {
    issuer, signInAt, signOut, sign,
    get backchannel() { return relay.backchannel; },
    set backchannel(handler) { relay.backchannel = handler; },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}
