/**
 * 固件管理 routes (issue #12): packages (multipart upload streamed to the package store while hashed,
 * list, delete) and rollouts (list, detail, locks, create, start, pause, resume, cancel, retry failed),
 * plus a lock's OTA history. Each write is audited in its transaction.
 */
import multipart from '@fastify/multipart';
import { firmwareEndpoints, firmwareUploadFields, protocol } from '@iot/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import { parseOrThrow } from '../../http/validation.js';
import { addPackage, deletePackage, listPackages } from './packages.js';
import { createRollout, rolloutActions } from './rollouts.js';
import { type PackageStore, PackageTooLarge, packageStoreFor, type StoredPackage } from './storage.js';
import { listRollouts, lockOtaHistory, rolloutDetail, rolloutLocks } from './views.js';

const tooLarge = () => new ApiError('PAYLOAD_TOO_LARGE', [{ field: 'file', message: {
  'zh-CN': `固件不能超过 ${protocol.OTA_MAX_PACKAGE_BYTES / 1024 / 1024} MiB`, 'en-US': `A package may not exceed ${protocol.OTA_MAX_PACKAGE_BYTES / 1024 / 1024} MiB`,
} }]);

/** Reads the form: text fields, and the one `file` part streamed into `store`. The caller removes the stored file on failure. */
async function readUpload(request: FastifyRequest, store: PackageStore) {
  if (!request.isMultipart()) throw fieldError('file', '请以 multipart/form-data 上传固件文件', 'Send the package as multipart/form-data');
  const fields: Record<string, string> = {};
  let stored: (StoredPackage & { fileName: string }) | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      } else if (part.fieldname === 'file' && !stored) {
        stored = { ...(await store.write(part.file, protocol.OTA_MAX_PACKAGE_BYTES)), fileName: part.filename || 'firmware.bin' };
      } else {
        part.file.resume();
      }
    }
  } catch (error) {
    if (stored) await store.remove(stored.key);
    if (error instanceof PackageTooLarge || (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if ((error as { statusCode?: number }).statusCode === 413) throw tooLarge();
    throw fieldError('file', '上传的表单无法读取', 'The uploaded form could not be read');
  }
  return { fields, stored };
}

/** Registers the firmware routes. */
export async function firmwareRoutes(app: FastifyInstance): Promise<void> {
  const store = packageStoreFor(app.config.DATA_DIR);
  await app.register(multipart, { limits: { fileSize: protocol.OTA_MAX_PACKAGE_BYTES + 1, files: 1, fields: 10, fieldSize: 8192 } });
  registerEndpoint(app, firmwareEndpoints.packages, ({ query, inTenant }) => inTenant((tx) => listPackages(tx, query)));
  registerEndpoint(app, firmwareEndpoints.upload, async ({ request, tenantId, principal, inTenant }) => {
    const { fields, stored } = await readUpload(request, store);
    try {
      const input = parseOrThrow(firmwareUploadFields, fields, 'body');
      if (!stored) throw fieldError('file', '请选择固件文件', 'Choose a package file');
      if (stored.size === 0) throw fieldError('file', '固件文件为空', 'The package file is empty');
      const { id } = await inTenant((tx) => addPackage(tx, tenantId, input, stored, principal.username));
      return { id, sha256: stored.sha256, sizeBytes: stored.size };
    } catch (error) {
      if (stored) await store.remove(stored.key);
      throw error;
    }
  });
  registerEndpoint(app, firmwareEndpoints.deletePackage, async ({ body, inTenant }) => {
    const { storageKey } = await inTenant((tx) => deletePackage(tx, body.id));
    await store.remove(storageKey); // after the commit: a failed delete keeps its bytes
    return null;
  });
  registerEndpoint(app, firmwareEndpoints.rollouts, ({ query, inTenant }) => inTenant((tx) => listRollouts(tx, query)));
  registerEndpoint(app, firmwareEndpoints.rollout, ({ query, inTenant }) => inTenant((tx) => rolloutDetail(tx, query.id)));
  registerEndpoint(app, firmwareEndpoints.rolloutLocks, ({ query, inTenant }) => inTenant((tx) => rolloutLocks(tx, query)));
  registerEndpoint(app, firmwareEndpoints.addRollout, ({ body, tenantId, principal, inTenant }) => inTenant((tx) => createRollout(tx, tenantId, body, principal.username)));
  for (const action of ['start', 'pause', 'resume', 'cancel', 'retryFailed'] as const) {
    registerEndpoint(app, firmwareEndpoints[action], async ({ body, inTenant }) => {
      await inTenant((tx) => rolloutActions[action](tx, body.id));
      return null;
    });
  }
  registerEndpoint(app, firmwareEndpoints.lockHistory, ({ query, inTenant }) => inTenant((tx) => lockOtaHistory(tx, query.imei)));
}
