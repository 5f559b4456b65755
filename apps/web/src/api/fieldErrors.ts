/**
 * A refusal's field errors on a form (issue #31): the server names each failing field (`body.x.y`)
 * with its message in both languages (the limit of a device type's rating, a package's signature
 * problem...). These show them under the form's own fields instead of a bare "invalid fields" toast.
 */
import type { Language } from '@iot/contract';
import type { FormInstance } from 'antd';
import { ApiError } from './client';

/** The field errors of `error` under `prefix` (e.g. `body.thresholds.`), as antd name paths; [] for none. */
export function fieldErrorsOf(error: unknown, prefix: string, language: Language): { name: (string | number)[]; errors: string[] }[] {
  if (!(error instanceof ApiError)) return [];
  return (error.body?.errors ?? []).filter((e) => e.field.startsWith(prefix)).map((e) => ({
    name: e.field.slice(prefix.length).split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
    errors: [e.message[language]],
  }));
}

/**
 * Shows the field errors of `error` under `prefix` on `form`; returns the toast text for the rest (the
 * message with what could not be placed), undefined when everything shows on the form or `error` is no
 * refusal. For a `quiet` call's `errorText`.
 */
export function showFieldErrors(form: FormInstance, error: unknown, prefix: string, language: Language): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const found = fieldErrorsOf(error, prefix, language);
  const known = found.filter((field) => form.getFieldInstance(field.name) !== undefined);
  form.setFields(known);
  const rest = [
    ...found.filter((field) => !known.includes(field)).map((field) => field.errors[0] as string),
    ...(error.body?.errors ?? []).filter((e) => !e.field.startsWith(prefix)).map((e) => e.message[language]),
  ];
  if (rest.length > 0) return `${error.message}：${rest.join('；')}`;
  return known.length > 0 ? undefined : error.message;
}
