/**
 * Multipart uploads (@fastify/multipart) read as the client's faults, shared by every upload route
 * (firmware packages, the lock import): a body that is not multipart, or that the parser cannot read
 * (no or a foreign boundary, a part cut off, too many parts), is a 400 VALIDATION_FAILED naming the
 * upload's field in Chinese and English; a file over the route's limit a 413 PAYLOAD_TOO_LARGE naming
 * it with the limit. Never a 500. Every string of the form goes through the contract's text rules
 *: the text fields through the endpoint's `upload.fields` schema (400 naming
 * body.<field>), the file's name through uploadFileName (400 naming the file's field).
 */
import type { MultipartFile } from '@fastify/multipart';
import { FIELD_MESSAGES, type FieldError, UNSAFE_TEXT, uploadFileName } from '@iot/contract';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ApiError, fieldError } from './api-error.js';
import { parseOrThrow } from './validation.js';

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

/** The client's name of an uploaded file, checked by the contract's rule (one line, no control character, at most 255 characters). */
export function checkedFileName(name: string, upload: UploadField): string {
  const parsed = uploadFileName.safeParse(name);
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues[0]?.code === 'too_big'
    ? { 'zh-CN': '文件名不能超过 255 个字符', 'en-US': 'The file name may not exceed 255 characters' }
    : { 'zh-CN': `文件名${FIELD_MESSAGES[UNSAFE_TEXT]?.['zh-CN']}`, 'en-US': `The file name ${FIELD_MESSAGES[UNSAFE_TEXT]?.['en-US']}` };
  throw new ApiError('VALIDATION_FAILED', [{ field: upload.field, message }]);
}

/**
 * Reads a multipart form: every text field (then parsed with `schema`), and the one file part named
 * after `upload.field` (`body.file` -> `file`), whose checked name and stream go to `onFile`. A missing
 * file and failing fields are one 400 listing each; another file part is a 400 too. Any fault of the
 * body itself is the client's (multipartFault).
 */
export async function readForm<S extends z.ZodType, T>(
  request: FastifyRequest, upload: UploadField, schema: S, onFile: (file: MultipartFile, fileName: string) => Promise<T>,
): Promise<{ fields: z.output<S>; file: T }> {
  requireMultipart(request, upload);
  const fileField = upload.field.replace(/^body\./, '');
  const values: Record<string, unknown> = {};
  let file: { value: T } | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') values[part.fieldname] = part.value;
      else if (part.fieldname !== fileField || file !== undefined) {
        part.file.resume();
        throw fieldError(`body.${part.fieldname}`, '表单中只能有一个文件', `The form may carry one file, as the field ${fileField}`);
      } else file = { value: await onFile(part, checkedFileName(part.filename, upload)) };
    }
  } catch (error) {
    throw multipartFault(error, upload);
  }
  const errors: FieldError[] = [];
  let fields: z.output<S> | undefined;
  try {
    fields = parseOrThrow(schema, values, 'body');
  } catch (error) {
    if (!(error instanceof ApiError) || !error.errors) throw error;
    errors.push(...error.errors);
  }
  if (!file) errors.push({ field: upload.field, message: { 'zh-CN': '请选择要上传的文件', 'en-US': 'Choose a file to upload' } });
  if (!file || errors.length > 0) throw new ApiError('VALIDATION_FAILED', errors);
  return { fields: fields as z.output<S>, file: file.value };
}
