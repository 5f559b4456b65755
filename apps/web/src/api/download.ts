/**
 * Downloads a file endpoint (log exports, a work order's photos): same headers as the HTTP client (tenantId, token,
 * Accept-Language), the body saved under the server's file name. Errors go through the client's
 * error toast; the result says whether the server cut the export (EXPORT_TRUNCATED_HEADER).
 */
import { EXPORT_TRUNCATED_HEADER, type Endpoint } from '@iot/contract';
import i18n from '../i18n';
import { queryString } from './client';
import { notifyError } from './notify';
import { keepRotatedToken, requestHeaders } from './transport';

/** Fetches a file endpoint with the client's headers; undefined after the error toast. */
export async function fetchFile(endpoint: Endpoint, query: object): Promise<Response | undefined> {
  const headers = requestHeaders({ token: true, json: false });
  let response: Response;
  try {
    response = await fetch(`${endpoint.path}${queryString(query)}`, { headers, credentials: 'same-origin' });
  } catch {
    notifyError(i18n.t('common:networkError'), 'network');
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
  const url = URL.createObjectURL(await response.blob());
  const anchor = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { truncated: response.headers.get(EXPORT_TRUNCATED_HEADER) === 'true' };
}
