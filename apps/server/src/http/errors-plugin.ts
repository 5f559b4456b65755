/**
 * Renders every failure as the envelope `{ success: false, code, message, data: null, errors? }`
 * in the caller's language (Accept-Language; Chinese by default); an error naming fields says their own
 * messages in `message` (fieldsMessage). Unknown errors become 500 INTERNAL
 * without details. Fastify's own client errors keep their status: 404 NOT_FOUND, 405
 * METHOD_NOT_ALLOWED, 413 PAYLOAD_TOO_LARGE, 415 UNSUPPORTED_MEDIA_TYPE, 429 TOO_MANY_ATTEMPTS,
 * 503 UNAVAILABLE (load shedding); any other 4xx (bad JSON...) is 400 VALIDATION_FAILED. A database
 * data exception (SQLSTATE class 22, 54000: a value the database cannot hold that the contract let
 * through) is a 400 VALIDATION_FAILED too, logged as a warning: the last line of defence, never a 500.
 */
import { ERRORS, type ErrorCode, type ErrorEnvelope, type FieldError, type Language, languageFromHeader } from '@iot/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isDataException } from '../db/errors.js';
import { ApiError } from './api-error.js';

/** Builds the error envelope for `error` in the request's language. */
export function errorEnvelope(request: FastifyRequest, error: ApiError): ErrorEnvelope {
  const language = languageFromHeader(request.headers['accept-language']);
  const message = error.localizedMessage?.[language] ?? fieldsMessage(error.errors, language) ?? ERRORS[error.code].message[language];
  return { success: false, code: error.code, message, data: null, ...(error.errors ? { errors: error.errors } : {}) };
}

/** Field messages shown at most in one envelope message; more are counted ("… 2 more"). */
const MESSAGE_FIELDS = 3;

/**
 * The envelope's message when the error names fields: the
 * fields' own messages in `language` (distinct, at most MESSAGE_FIELDS), so a client showing `message`
 * shows the reason (请先生成签名密钥) rather than the code's generic text (请求参数有误).
 */
export function fieldsMessage(errors: readonly FieldError[] | undefined, language: Language): string | undefined {
  if (!errors?.length) return undefined;
  const texts = [...new Set(errors.map((error) => error.message[language]))];
  const shown = texts.slice(0, MESSAGE_FIELDS).join(language === 'zh-CN' ? '；' : '; ');
  const more = texts.length - MESSAGE_FIELDS;
  if (more <= 0) return shown;
  return language === 'zh-CN' ? `${shown}；另有 ${more} 处` : `${shown}; and ${more} more`;
}

/** Fastify's client-error statuses that keep their meaning (and their code) in the envelope. */
const BY_STATUS: Record<number, ErrorCode> = {
  404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED', 413: 'PAYLOAD_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE', 429: 'TOO_MANY_ATTEMPTS', 503: 'UNAVAILABLE',
};

/** The 400 of a value the database refused (isDataException). */
const DATABASE_REFUSED = new ApiError('VALIDATION_FAILED', [{ field: 'request', message: {
  'zh-CN': '请求中的某个值超出了数据库可保存的范围（时间、数字、长度或编码）', 'en-US': 'A value of the request is beyond what the database can hold (time, number, length or encoding)',
} }]);

function toApiError(error: FastifyError): ApiError {
  if (error instanceof ApiError) return error;
  if (isDataException(error)) return DATABASE_REFUSED;
  const status = error.statusCode ?? 500;
  const code = BY_STATUS[status];
  if (code) return new ApiError(code);
  if (status >= 400 && status < 500) {
    return new ApiError('VALIDATION_FAILED', [{ field: 'request', message: { 'zh-CN': '请求格式有误', 'en-US': error.message } }]);
  }
  return new ApiError('INTERNAL');
}

export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error);
    request.errorCode = apiError.code;
    if (apiError.status >= 500 && apiError.status !== 503) request.log.error({ err: error }, 'request failed');
    else if (apiError === DATABASE_REFUSED) request.log.warn({ err: error }, 'the database refused a value the contract let through');
    return reply.status(apiError.status).send(errorEnvelope(request, apiError));
  });
});
