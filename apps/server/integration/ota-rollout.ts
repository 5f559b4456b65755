/**
 * A firmware rollout driven over the HTTP API of a running server (integration tests and bench/ota.ts):
 * a package of pseudo-random bytes signed with the demo vendor key and uploaded as multipart, a rollout of it to listed IMEIs created and
 * started with gates wide open (any battery and signal, no window), and its detail for polling.
 * Every call signs its requests with a zw_paas_token of tenant 100 (signInOverHttp).
 */
import { firmwareEndpoints } from '@iot/contract';
import { signDemoFirmware } from '@iot/simulator';

/** `size` bytes of a deterministic pseudo-random firmware image. */
export function firmwareImage(size: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1_103_515_245 + 12_345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

async function api(base: string, token: string, path: string, init: { method?: string; body?: BodyInit; json?: unknown } = {}) {
  const headers: Record<string, string> = { zw_paas_token: token, tenantId: '100' };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET', headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`);
  return JSON.parse(text).data;
}

/** Signs `image` as `version` of `model` with the demo vendor key (the server runs with DEMO=on) and uploads it; returns the package id. */
export async function uploadPackage(base: string, token: string, model: string, version: string, image: Buffer): Promise<number> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ model, version, notesZh: '测试', notesEn: 'Test' })) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(signDemoFirmware(image, model, version))]), `${model}-${version}.zgfw`);
  return (await api(base, token, firmwareEndpoints.upload.path, { method: 'POST', body: form })).id;
}

/**
 * Creates a rollout of `packageId` to `imeis` (no gate closed: battery 0 %, RSSI -150 dBm, no window;
 * `extra` overrides any field of the contract's rolloutInput) and starts it; returns its id.
 */
export async function startRollout(base: string, token: string, packageId: number, imeis: string[], extra: Record<string, unknown> = {}): Promise<number> {
  const body = { packageId, target: { kind: 'imeis', imeis }, minBattery: 0, minRssi: -150, ...extra };
  const { id } = await api(base, token, firmwareEndpoints.addRollout.path, { method: 'POST', json: body });
  await api(base, token, firmwareEndpoints.start.path, { method: 'POST', json: { id } });
  return id;
}

/** The rollout's state and its locks counted per job state (contract rolloutDetail). */
export async function rolloutState(base: string, token: string, id: number): Promise<{ state: string; counts: Record<string, number> }> {
  return api(base, token, `${firmwareEndpoints.rollout.path}?id=${id}`);
}
