/**
 * ApiError: a refusal with one of the contract's error codes (HTTP status and zh/en message come from
 * the contract's ERRORS table). Thrown anywhere in a request; the error handler renders the envelope.
 */
import { ERRORS, type ErrorCode, type FieldError, type LocalizedText, localized } from '@iot/contract';

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly errors?: FieldError[],
    /** Replaces the catalogue's message, e.g. to say which limit was hit. */
    readonly localizedMessage?: LocalizedText,
  ) {
    super(code);
    this.status = ERRORS[code].status;
  }
}

/**
 * Shorthand for a 409 CONFLICT naming the field it is about (a conflict says which field and
 * why, e.g. "this username is taken" on body.username, not only "conflicting data").
 */
export function conflictError(field: string, zh: string, en: string): ApiError {
  return new ApiError('CONFLICT', [{ field, message: localized(zh, en) }]);
}

/** Shorthand for a 400 naming one field. */
export function fieldError(field: string, zh: string, en: string): ApiError {
  return new ApiError('VALIDATION_FAILED', [{ field, message: localized(zh, en) }]);
}
