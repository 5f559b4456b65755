/**
 * Firmware data for `npm run screenshots` (固件管理 and 设备信息 have none in a fresh demo): over the
 * HTTP API of the screenshot server, two packages of ZG-NB100 and one of ZG-NB200, a rollout of the
 * newest NB100 package to the online simulated NB100 locks with a canary of 2 (gates open), started
 * and followed until it completes (at most `waitMs`), and a second rollout left CREATED. Returns the
 * finished rollout's id and one of its locks' IMEI.
 */
import { TENANT_HEADER, TOKEN_HEADER } from '@iot/contract';
import { signDemoFirmware } from '@iot/simulator';
import { signInOverHttp } from '../apps/server/integration/server-process.js';

interface Envelope<T> { success: boolean; data: T; message?: string }

/** `attempt()` again, up to 5 times 2 s apart, while it throws (a loaded machine: the server sheds load with 503). */
async function retried<T>(attempt: () => Promise<T>): Promise<T> {
  for (let left = 4; ; left--) {
    try {
      return await attempt();
    } catch (error) {
      if (left === 0) throw error;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

/** Seeds the firmware data; `origin` is the server's http://host:port. */
export async function seedFirmware(origin: string, password: string, waitMs = 60_000): Promise<{ rolloutId: number; imei: string }> {
  const token = await retried(() => signInOverHttp(origin, 'admin', password));
  const headers = { [TOKEN_HEADER]: token, [TENANT_HEADER]: '100' };
  const api = <T>(method: 'GET' | 'POST', path: string, body?: object | FormData): Promise<T> => retried(async () => {
    const json = body !== undefined && !(body instanceof FormData);
    const response = await fetch(`${origin}${path}`, {
      method, headers: { ...headers, ...(json ? { 'content-type': 'application/json' } : {}) }, body: json ? JSON.stringify(body) : body,
    });
    const envelope = (await response.json()) as Envelope<T>;
    if (!envelope.success) throw new Error(`${method} ${path}: ${response.status} ${envelope.message}`);
    return envelope.data;
  });
  const upload = async (model: string, version: string, notesZh: string, notesEn: string, size: number) => {
    const form = new FormData();
    for (const [name, value] of Object.entries({ model, version, notesZh, notesEn })) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(signDemoFirmware(Buffer.alloc(size, version), model, version))]), `${model}-${version}.zgfw`);
    return (await api<{ id: number }>('POST', '/iot/v1/firmware/upload', form)).id;
  };
  await upload('ZG-NB100', '2.4.0', '修复门磁误报', 'Fixes false door-sensor alarms', 180_000);
  const packageId = await upload('ZG-NB100', '2.5.0', '低功耗优化，指纹识别更快', 'Lower power draw, faster fingerprint matching', 24_000);
  const nb200 = await upload('ZG-NB200', '3.0.0', '支持临时密码时段', 'Time-limited temporary passwords', 320_000);
  const locks = (await api<{ records: { imei: string }[] }>('GET', '/iot/v1/lockDevice/list?model=ZG-NB100&online=true&size=50')).records;
  if (locks.length === 0) throw new Error('no online ZG-NB100 lock to roll out to');
  const open = { minBattery: 0, minRssi: -150 };
  const { id } = await api<{ id: number }>('POST', '/iot/v1/firmware/rollout/add', {
    packageId, name: '夜间升级 NB100 / Night upgrade', target: { kind: 'imeis', imeis: locks.map((lock) => lock.imei) }, canarySize: 2, ...open,
  });
  await api('POST', '/iot/v1/firmware/rollout/add', { packageId: nb200, name: 'NB200 灰度 / gray 20%', target: { kind: 'type' }, grayPercent: 20, ...open });
  await api('POST', '/iot/v1/firmware/rollout/start', { id });
  const end = Date.now() + waitMs;
  while (Date.now() < end && (await api<{ state: string }>('GET', `/iot/v1/firmware/rollout/detail?id=${id}`)).state !== 'COMPLETED') {
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return { rolloutId: id, imei: (locks[0] as { imei: string }).imei };
}
