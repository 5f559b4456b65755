/**
 * A multipart form (text fields and a file) posted with progress (fetch reports none; api/upload.ts posts a lone file): XMLHttpRequest with the same headers as the
 * HTTP client (token, data centre, language), the same token rotation and the same toasts; resolves to
 * the envelope's data, rejects with an ApiError (status 0 for a network failure or the spec's
 * REQUEST_TIMEOUT_MS, 100,000 ms, passing). Used by 固件管理's package upload.
 */
import { type Endpoint, ERRORS, type ErrorEnvelope, REQUEST_TIMEOUT_MS, type ResponseOf } from '@iot/contract';
import i18n from '../i18n';
import { getLanguage } from '../session/session';
import { ApiError } from './client';
import { notifyError } from './notify';
import { keepRotatedToken, requestHeaders } from './transport';

/** Posts `form` to `endpoint`; `onProgress` gets the % of the body sent (0-100); `quiet`: the caller shows a refusal itself (no toast). */
export function uploadWithProgress<E extends Endpoint>(endpoint: E, form: FormData, onProgress: (percent: number) => void, options: { quiet?: boolean } = {}): Promise<ResponseOf<E>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(endpoint.method, endpoint.path);
    xhr.timeout = REQUEST_TIMEOUT_MS;
    for (const [name, value] of Object.entries(requestHeaders({ token: true, json: false }))) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.floor((event.loaded * 100) / event.total));
    };
    const failed = (status: number, body: ErrorEnvelope | undefined) => {
      const message = body?.message ?? ERRORS.INTERNAL.message[getLanguage()];
      if (!options.quiet) notifyError(message, body?.code);
      reject(new ApiError(status, body, message));
    };
    xhr.onerror = () => failed(0, undefined);
    xhr.ontimeout = () => {
      const message = i18n.t('common:timeout');
      if (!options.quiet) notifyError(message, 'timeout');
      reject(new ApiError(0, undefined, message));
    };
    xhr.onload = () => {
      keepRotatedToken({ get: (name) => xhr.getResponseHeader(name) });
      let body: { success?: boolean; data?: unknown } & Partial<ErrorEnvelope>;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        return failed(xhr.status, undefined);
      }
      if (xhr.status !== 200 || !body.success) return failed(xhr.status, body as ErrorEnvelope);
      resolve(body.data as ResponseOf<E>);
    };
    xhr.send(form);
  });
}
