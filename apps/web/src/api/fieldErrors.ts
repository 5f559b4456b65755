/**
 * The server's field errors on a form: a refusal names its
 * fields as dotted paths (`body.imei`, `body.window.start`, contract FieldError) with a message in both
 * languages; the field of that name on the form (the path without `body.` / `query.`, or the form name
 * `fields` maps it to; else the longest tail of the path the form has: `body.config.volume` -> `volume`)
 * shows the message in the chosen language and is scrolled into view.
 *
 * A `quiet` call places the errors under one prefix itself: showFieldErrors.
 */
import type { FieldError, Language } from '@iot/contract';
import type { FormInstance } from 'antd';
import { getLanguage } from '../session/session';
import { ApiError } from './client';

type NamePath = (string | number)[];

/** Form name path of a server field: `body.window.start` -> ['window', 'start'], `body.items.2` -> ['items', 2]. */
export function formPath(field: string, fields?: Readonly<Record<string, string>>): NamePath {
  const mapped = fields?.[field];
  const path = (mapped ?? field.replace(/^(body|query|params)\./, '')).split('.');
  return path.map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

const same = (a: readonly (string | number)[], b: readonly (string | number)[]) => a.length === b.length && a.every((part, i) => part === b[i]);

/**
 * Marks each field of `error` that `form` has; returns the server fields it could not place (the toast
 * already says them).
 */
export function markFieldErrors(form: FormInstance, error: ApiError, fields?: Readonly<Record<string, string>>): FieldError[] {
  const language = getLanguage();
  const registered = form.getFieldsError().map((entry) => entry.name);
  const unplaced: FieldError[] = [];
  const marks: { name: NamePath; errors: string[] }[] = [];
  for (const fieldError of error.body?.errors ?? []) {
    const path = formPath(fieldError.field, fields);
    const tails = path.map((_, start) => path.slice(start));
    const name = tails.map((tail) => registered.find((candidate) => same(candidate, tail))).find(Boolean);
    if (!name) { unplaced.push(fieldError); continue; }
    const existing = marks.find((mark) => same(mark.name, name));
    if (existing) existing.errors.push(fieldError.message[language]);
    else marks.push({ name: [...name], errors: [fieldError.message[language]] });
  }
  if (marks.length > 0) {
    form.setFields(marks);
    form.scrollToField(marks[0]?.name ?? [], { block: 'center' });
  }
  return unplaced;
}

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
