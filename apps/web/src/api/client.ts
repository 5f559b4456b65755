/**
 * HTTP client of the console (spec §7, §8). Every call carries `tenantId` and `Accept-Language`;
 * token calls also carry `zw_paas_token` and a JSON content type. A `zw_paas_token` response header
 * replaces the stored token. Enveloped bodies are unwrapped to `data`. Errors:
 * - 401, or 403 TOKEN_EXPIRED (or without an error code), on a token call: the server's message (why:
 *   "token expired", or an administrator changed the password / roles / disabled the account) as a
 *   toast, then after 500 ms the session is cleared and the user goes to /login;
 * - 403 FORBIDDEN: "no permission" toast, session kept; another 403 refusal with a code (ESCALATION,
 *   SELF_ACTION), or 401 TWO_FACTOR_INVALID (a wrong code, not an ended session): its message, session kept;
 * - 403 STEP_UP_REQUIRED (a dangerous action): the step-up dialog asks for the
 *   authenticator code (api/stepUp.ts) and the call is sent once more; cancelled, it rejects with
 *   the first answer's error;
 * - 503 with Retry-After (the server shed the request under load; nothing was done): sent again after
 *   the wait, at most twice (shed.ts), before it counts as an error;
 * - anything else: toast with the server's message (unless `quiet`), reject with an ApiError.
 */
import {
  AUTH_FAILURE_REDIRECT_MS, ERRORS, REQUEST_TIMEOUT_MS,
  type BodyOf, type Endpoint, type ErrorEnvelope, type QueryOf, type ResponseOf,
} from '@iot/contract';
import i18n from '../i18n';
import { getLanguage } from '../session/session';
import { signOutLocally } from '../session/signOut';
import { loading } from './loading';
import { notifyError } from './notify';
import { resendWhileShed } from './shed';
import { takeEarly } from './early';
import { askStepUp, canStepUp } from './stepUp';
import { keepRotatedToken, requestHeaders } from './transport';

/** The answer asking for a second factor again before a dangerous call. */
const STEP_UP_REQUIRED = 'STEP_UP_REQUIRED';

/** A failed call: HTTP status (0 for network errors/timeouts) and the enveloped error body if any. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly body: ErrorEnvelope | undefined, message: string) {
    super(message);
    this.name = 'ApiError';
  }
  /** Error code of the envelope, if the server sent one. */
  get code(): string | undefined {
    return this.body?.code;
  }
}

export interface CallOptions<E> {
  query?: QueryOf<E>;
  body?: BodyOf<E> | FormData;
  /** Background call (e.g. polling): does not show the loading overlay. */
  background?: boolean;
  /** The caller shows the error itself (no toast); session expiry is still handled. */
  quiet?: boolean;
  /** The response is a plain JSON document, not an envelope (e.g. /static/config.json). */
  raw?: boolean;
  signal?: AbortSignal;
}

let expiring = false;

/** Shows the expiry message once, then signs out after AUTH_FAILURE_REDIRECT_MS. */
function expireSession(message: string): void {
  if (expiring) return;
  expiring = true;
  notifyError(message, 'session-expired');
  setTimeout(() => {
    expiring = false;
    signOutLocally();
  }, AUTH_FAILURE_REDIRECT_MS);
}

/** Builds `?a=1&b=x`, skipping undefined, null and empty values. */
export function queryString(query: object | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function isEnvelope(body: unknown): body is { success: boolean; code: string; message: string; data: unknown } {
  return typeof body === 'object' && body !== null && 'success' in body && 'code' in body;
}

/** One request of `endpoint`, each attempt within REQUEST_TIMEOUT_MS; a shed one is sent again (shed.ts). */
async function send(endpoint: Endpoint, options: CallOptions<unknown>): Promise<Response> {
  const timeout = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
  const { body } = options;
  const payload = body instanceof FormData ? body : body !== undefined ? JSON.stringify(body) : endpoint.method === 'GET' ? undefined : '{}';
  const attempt = async () => {
    const timer = setTimeout(() => timeout.abort(), REQUEST_TIMEOUT_MS);
    try {
      const url = `${endpoint.path}${queryString(options.query as object | undefined)}`;
      const sent = () => fetch(url, {
        method: endpoint.method, headers: requestHeaders({ token: endpoint.kind === 'token', json: endpoint.kind !== 'multipart' }), body: payload, signal, credentials: 'same-origin',
      });
      // The page's first data may have been asked for at start-up (api/early.ts): its answer, else a request now.
      const early = endpoint.method === 'GET' && endpoint.kind === 'token' ? takeEarly(url) : undefined;
      return await (early ? early.catch(sent) : sent());
    } finally {
      clearTimeout(timer);
    }
  };
  try {
    return await resendWhileShed(attempt, options.signal);
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    const message = i18n.t(timeout.signal.aborted ? 'common:timeout' : 'common:networkError');
    if (!options.quiet) notifyError(message, 'network');
    throw new ApiError(0, undefined, message);
  }
}

function fail(endpoint: Endpoint, status: number, body: unknown, quiet: boolean | undefined): never {
  const envelope = isEnvelope(body) ? (body as ErrorEnvelope) : undefined;
  const language = getLanguage();
  const message = envelope?.message ?? (typeof body === 'string' && body ? body : `HTTP ${status}`);
  const forbidden = status === 403 && envelope?.code === 'FORBIDDEN';
  const refused = envelope !== undefined && ((status === 403 && envelope.code !== 'TOKEN_EXPIRED') || envelope.code === 'TWO_FACTOR_INVALID');
  if (envelope?.code === STEP_UP_REQUIRED && canStepUp()) {
    // call() asks for the code and sends the request again: no toast.
  } else if (forbidden) {
    if (!quiet) notifyError(ERRORS.FORBIDDEN.message[language], 'forbidden');
  } else if (refused) {
    if (!quiet) notifyError(message, envelope?.code);
  } else if (endpoint.kind === 'token' && (status === 403 || status === 401)) {
    // The server says why when an administrator's change ended the session (contract SIGN_OUT_REASONS).
    expireSession(envelope?.code === 'TOKEN_EXPIRED' && envelope.message ? envelope.message : ERRORS.TOKEN_EXPIRED.message[language]);
  } else if (endpoint.kind === 'multipart' && status === 403) {
    expireSession(message);
  } else if (!quiet) {
    notifyError(message, envelope?.code);
  }
  throw new ApiError(status, envelope, message);
}

/**
 * Calls a contract endpoint and resolves to its unwrapped `data`; a dangerous call refused with
 * STEP_UP_REQUIRED is sent again once after the step-up dialog accepted a code.
 * @example call(lockEndpoints.list, { query: { current: 1, size: 10 } })
 */
export async function call<E extends Endpoint>(endpoint: E, options: CallOptions<E> = {}): Promise<ResponseOf<E>> {
  try {
    return await callOnce(endpoint, options);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== STEP_UP_REQUIRED || !(await askStepUp())) throw error;
    return callOnce(endpoint, options);
  }
}

async function callOnce<E extends Endpoint>(endpoint: E, options: CallOptions<E>): Promise<ResponseOf<E>> {
  if (!options.background) loading.begin();
  try {
    const response = await send(endpoint, options as CallOptions<unknown>);
    keepRotatedToken(response.headers);
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    if (!response.ok) fail(endpoint, response.status, body, options.quiet);
    if (options.raw) return body as ResponseOf<E>;
    if (!isEnvelope(body) || !body.success) fail(endpoint, response.status, body, options.quiet);
    return body.data as ResponseOf<E>;
  } finally {
    if (!options.background) loading.end();
  }
}
