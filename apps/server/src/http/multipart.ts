/**
 * Multipart uploads (@fastify/multipart) read as the client's faults, shared by every upload route
 * (firmware packages, the lock import): a body that is not multipart, or that the parser cannot read
 * (no or a foreign boundary, a part cut off, too many parts), is a 400 VALIDATION_FAILED naming the
 * upload's field in Chinese and English; a file over the route's limit a 413 PAYLOAD_TOO_LARGE naming
 * it with the limit. Never a 500.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError, fieldError } from './api-error.js';

/** The upload's field as named in errors (e.g. `body.file`) and its size limit, bytes. */
export interface UploadField {
  field: string;
  maxBytes: number;
}

/** "8 MiB", "5 MB": the limit as the contract states it (binary for MiB multiples, else decimal). */
function sizeText(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  return `${Math.round(bytes / 100_000) / 10} MB`;
}

/** 413 naming `upload.field`: the file passed `upload.maxBytes`. */
export function uploadTooLarge(upload: UploadField): ApiError {
  const limit = sizeText(upload.maxBytes);
  return new ApiError('PAYLOAD_TOO_LARGE', [{ field: upload.field, message: { 'zh-CN': `文件不能超过 ${limit}`, 'en-US': `The file may not exceed ${limit}` } }]);
}

/** Throws a 400 on `upload.field` unless the request is multipart/form-data. */
export function requireMultipart(request: FastifyRequest, upload: UploadField): void {
  if (!request.isMultipart()) throw fieldError(upload.field, '请以 multipart/form-data 上传文件', 'Upload the file as multipart/form-data');
}

/**
 * The refusal for an error thrown while reading a multipart body: an ApiError as it is, the parser's
 * file size limit as uploadTooLarge, anything else the parser or the request stream throws (no
 * boundary, unexpected end of form, premature close, parts/fields limits) as a 400 on the field.
 */
export function multipartFault(error: unknown, upload: UploadField): ApiError {
  if (error instanceof ApiError) return error;
  if ((error as { code?: unknown } | null)?.code === 'FST_REQ_FILE_TOO_LARGE') return uploadTooLarge(upload);
  return fieldError(upload.field, '上传内容不是完整有效的 multipart/form-data 表单', 'The upload is not a complete, valid multipart/form-data form');
}
