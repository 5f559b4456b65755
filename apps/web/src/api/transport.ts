/**
 * What every request of the console shares, whichever way it is sent (fetch in client.ts and
 * download.ts, XMLHttpRequest for the uploads' progress in upload.ts and uploadForm.ts): the headers
 * it carries and the token rotation of its answer (spec §7 "Requests").
 */
import { TENANT_HEADER, TOKEN_HEADER } from '@iot/contract';
import { getLanguage, getTenantId, getToken, setToken } from '../session/session';

/** What a request sends besides the data-centre and language headers every request carries. */
export interface HeaderNeeds {
  /** The stored access token in `zw_paas_token` (an empty value when signed out): calls the server authorises. */
  token: boolean;
  /** `Content-Type: application/json`: a JSON body (not a multipart form, whose boundary the browser sets). */
  json: boolean;
}

/**
 * The request headers by name: `tenantId` (stored data centre, DEFAULT_TENANT_ID when none) and
 * `Accept-Language` on every call, then the JSON content type and the token as `needs` asks.
 */
export function requestHeaders(needs: HeaderNeeds): Record<string, string> {
  const headers: Record<string, string> = { [TENANT_HEADER]: String(getTenantId()), 'Accept-Language': getLanguage() };
  if (needs.json) headers['Content-Type'] = 'application/json';
  if (needs.token) headers[TOKEN_HEADER] = getToken() ?? '';
  return headers;
}

/**
 * Token rotation: an answer carrying `zw_paas_token` replaces the stored token (the server renews a
 * token close to its end on any call). Takes the answer's headers (fetch's Headers, or an
 * XMLHttpRequest's getResponseHeader wrapped in `{ get }`); an answer without it changes nothing.
 */
export function keepRotatedToken(headers: Pick<Headers, 'get'>): void {
  const rotated = headers.get(TOKEN_HEADER);
  if (rotated) setToken(rotated);
}
