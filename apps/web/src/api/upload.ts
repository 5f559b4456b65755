/**
 * Uploads a file to a multipart contract endpoint (lock import) with upload progress (XMLHttpRequest:
 * fetch reports none), the client's headers (tenantId, token, Accept-Language) and its error toast.
 * Resolves to the response (JSON data unwrapped, or a file as a Blob with its headers); rejects after
 * the toast on failure. A shed upload (503 with Retry-After, nothing done: api/shed.ts) is sent again
 * after the wait, like every other request of the client.
 */
import { type Endpoint, type ErrorEnvelope, REQUEST_TIMEOUT_MS } from '@iot/contract';
import i18n from '../i18n';
import { getLanguage } from '../session/session';
import { notifyError } from './notify';
import { SHED_RETRIES, shedWaitMs } from './shed';
import { keepRotatedToken, requestHeaders } from './transport';

export interface Uploaded {
  /** The unwrapped data of a JSON answer. */
  data?: unknown;
  /** A file answer. */
  file?: { blob: Blob; name: string };
  header(name: string): string | null;
}

/**
 * POSTs `file` as the form field `file`, after the text `fields` (e.g. the work order a photo belongs
 * to); `onProgress` gets the uploaded share, 0-100.
 */
export function uploadFile(
  endpoint: Endpoint, file: Blob, fileName: string, onProgress: (percent: number) => void, fields: Readonly<Record<string, string>> = {},
): Promise<Uploaded> {
  return new Promise((resolve, reject) => {
    const send = (retriesLeft: number) => {
      const xhr = new XMLHttpRequest();
      xhr.open(endpoint.method, endpoint.path);
      xhr.responseType = 'blob';
      xhr.timeout = REQUEST_TIMEOUT_MS;
      for (const [name, value] of Object.entries(requestHeaders({ token: true, json: false }))) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (event) => { if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100)); };
      const failNetwork = () => { notifyError(i18n.t('common:networkError'), 'network'); reject(new Error('network')); };
      xhr.onerror = failNetwork;
      xhr.ontimeout = failNetwork;
      xhr.onload = async () => {
        const header = (name: string) => xhr.getResponseHeader(name);
        const shedWait = shedWaitMs({ status: xhr.status, headers: { get: header } as Headers });
        if (shedWait !== undefined && retriesLeft > 0) {
          setTimeout(() => send(retriesLeft - 1), shedWait);
          return;
        }
        keepRotatedToken({ get: header });
        const blob = xhr.response as Blob;
        const json = (header('content-type') ?? '').startsWith('application/json');
        const body = json ? JSON.parse(await blob.text()) as { data?: unknown } & Partial<ErrorEnvelope> : undefined;
        if (xhr.status >= 400) {
          const detail = body?.errors?.map((error) => error.message[getLanguage()]).join('; ');
          notifyError(detail || body?.message || `HTTP ${xhr.status}`, body?.code);
          reject(new Error(body?.message ?? `HTTP ${xhr.status}`));
          return;
        }
        const name = /filename="([^"]+)"/.exec(header('content-disposition') ?? '')?.[1] ?? 'download';
        resolve(json ? { data: body?.data, header } : { file: { blob, name }, header });
      };
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      form.append('file', file, fileName);
      xhr.send(form);
    };
    send(SHED_RETRIES);
  });
}

/** Saves a Blob under `name` in the browser's downloads. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
