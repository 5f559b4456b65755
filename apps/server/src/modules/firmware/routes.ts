/**
 * 固件管理 routes: packages (multipart upload of a vendor-signed package, streamed to the
 * package store while hashed and inspected, its signature and manifest verified: signed-upload.ts; list, delete) and rollouts (list, detail, locks, create, start, pause, resume, cancel, retry failed),
 * plus a lock's OTA history. Each write is audited in its transaction.
 */
import { pipeline } from 'node:stream';
import multipart from '@fastify/multipart';
import { type FieldError, firmwareEndpoints, type FirmwareUploadFields, firmwareUploadFields, protocol } from '@iot/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { writeAuditRow } from '../../http/audit-plugin.js';
import { ApiError } from '../../http/api-error.js';
import { checkedFileName, multipartFault, requireMultipart, type UploadField, uploadTooLarge } from '../../http/multipart.js';
import { parseOrThrow } from '../../http/validation.js';
import { describeChange, readTarget } from '../auditLog/targets.js';
import { addPackage, deletePackage, listPackages } from './packages.js';
import { createRollout, rolloutActions } from './rollouts.js';
import { PackageInspector, verifyUpload } from './signed-upload.js';
import { type PackageStore, PackageTooLarge, packageStoreFor, type StoredPackage } from './storage.js';
import { vendorKeysOf } from './vendor-keys.js';
import { listRollouts, lockOtaHistory, rolloutDetail, rolloutLocks } from './views.js';

const UPLOAD: UploadField = { field: 'body.file', maxBytes: protocol.OTA_MAX_PACKAGE_BYTES };

/**
 * Reads the form: text fields, and the one `file` part streamed into `store`. A body the parser cannot
 * read is a 400 on body.file, a package over the limit a 413 (multipartFault); nothing is kept then.
 * Otherwise the caller removes the stored file when it refuses the upload.
 */
async function readUpload(request: FastifyRequest, store: PackageStore) {
  requireMultipart(request, UPLOAD);
  const fields: Record<string, string> = {};
  let stored: (StoredPackage & { fileName: string; inspected: ReturnType<PackageInspector['result']> }) | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      } else if (part.fieldname === 'file' && !stored) {
        const fileName = checkedFileName(part.filename || 'firmware.zgfw', UPLOAD); // the contract's text rule, before a byte is stored
        // pipeline, not pipe: a body cut off inside the file (the part closes without 'end') must end the
        // inspector with an error too, or the store would wait for it forever.
        const inspector = pipeline(part.file, new PackageInspector(), () => {});
        const written = await store.write(inspector, protocol.OTA_MAX_PACKAGE_BYTES);
        stored = { ...written, fileName, inspected: inspector.result() };
      } else {
        part.file.resume();
      }
    }
  } catch (error) {
    if (stored) await store.remove(stored.key);
    throw error instanceof PackageTooLarge ? uploadTooLarge(UPLOAD) : multipartFault(error, UPLOAD);
  }
  return { fields, stored };
}

/** The form's fields, and a stored non-empty file: a 400 listing every failing field otherwise. */
function checkUpload<P extends StoredPackage>(fields: Record<string, string>, stored: P | undefined) {
  const errors: FieldError[] = [];
  let input: FirmwareUploadFields | undefined;
  try {
    input = parseOrThrow(firmwareUploadFields, fields, 'body');
  } catch (error) {
    if (!(error instanceof ApiError) || !error.errors) throw error;
    errors.push(...error.errors);
  }
  if (!stored) errors.push({ field: UPLOAD.field, message: { 'zh-CN': '请选择固件文件', 'en-US': 'Choose a package file' } });
  else if (stored.size === 0) errors.push({ field: UPLOAD.field, message: { 'zh-CN': '固件文件为空', 'en-US': 'The package file is empty' } });
  if (errors.length > 0 || !input || !stored) throw new ApiError('VALIDATION_FAILED', errors);
  return { input, stored };
}

/** Registers the firmware routes. */
export async function firmwareRoutes(app: FastifyInstance): Promise<void> {
  const store = packageStoreFor(app.config.DATA_DIR);
  await app.register(multipart, { limits: { fileSize: protocol.OTA_MAX_PACKAGE_BYTES + 1, files: 1, fields: 10, fieldSize: 8192 } });
  registerEndpoint(app, firmwareEndpoints.packages, ({ query, inTenant }) => inTenant((tx) => listPackages(tx, query)));
  const vendorKeys = vendorKeysOf(app.config);
  registerEndpoint(app, firmwareEndpoints.upload, async ({ request, tenantId, principal, inTenant }) => {
    const form = await readUpload(request, store);
    try {
      const { input, stored } = checkUpload(form.fields, form.stored);
      const keyId = verifyUpload(stored.inspected, vendorKeys, input);
      // The system log names the package (系统日志 showed "—" for 上传固件): a multipart form has
      // no parsed body for the shared row, so it is written here, in the same transaction, from the stored row.
      const { id } = await inTenant(async (tx) => {
        const added = await addPackage(tx, tenantId, input, { ...stored, keyId }, principal.username);
        const described = describeChange(undefined, await readTarget(tx, { entity: 'firmwarePackage', id: added.id }));
        await writeAuditRow(tx, request, 'success', { id: added.id }, described);
        return added;
      });
      return { id, sha256: stored.sha256, sizeBytes: stored.size, version: input.version, keyId };
    } catch (error) {
      if (form.stored) await store.remove(form.stored.key);
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
