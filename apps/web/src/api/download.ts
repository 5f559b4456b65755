/**
 * Downloads a file endpoint (log exports, a work order's photos): same headers as the HTTP client (tenantId, token,
 * Accept-Language), the body saved under the server's file name. Errors go through the client's
 * error toast; the result says whether the server cut the export (EXPORT_TRUNCATED_HEADER). The whole
 * download, body included, has the spec's REQUEST_TIMEOUT_MS (100,000 ms).
 */
import { EXPORT_TRUNCATED_HEADER, type Endpoint, REQUEST_TIMEOUT_MS } from '@iot/contract';
import i18n from '../i18n';
import { queryString } from './client';
import { notifyError } from './notify';
import { keepRotatedToken, requestHeaders } from './transport';

/** The toast of a transfer that failed: the timeout's message when REQUEST_TIMEOUT_MS passed, else the network one. */
function failedTransfer(error: unknown): void {
  const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
  notifyError(i18n.t(timedOut ? 'common:timeout' : 'common:networkError'), timedOut ? 'timeout' : 'network');
}

/** Fetches a file endpoint with the client's headers; undefined after the error toast. */
export async function fetchFile(endpoint: Endpoint, query: object): Promise<Response | undefined> {
  const headers = requestHeaders({ token: true, json: false });
  let response: Response;
  try {
    response = await fetch(`${endpoint.path}${queryString(query)}`, { headers, credentials: 'same-origin', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (error) {
    failedTransfer(error);
    return undefined;
  }
  keepRotatedToken(response.headers);
  if (!response.ok) {
    const body = await response.json().catch(() => undefined);
    notifyError(body?.message ?? `HTTP ${response.status}`, body?.code);
    return undefined;
  }
  return response;
}

/** Fetches `endpoint` with `query` and saves the response; resolves to { truncated } or undefined on failure. */
export async function downloadFile(endpoint: Endpoint, query: object): Promise<{ truncated: boolean } | undefined> {
  const response = await fetchFile(endpoint, query);
  if (!response) return undefined;
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'export';
  const blob = await response.blob().catch((error: unknown) => error);
  if (!(blob instanceof Blob)) {
    failedTransfer(blob);
    return undefined;
  }
  const url = URL.createObjectURL(blob);
  const anchor = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { truncated: response.headers.get(EXPORT_TRUNCATED_HEADER) === 'true' };
}
