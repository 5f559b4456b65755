/**
 * The server's field errors on a form (issue #24 "errors that say what is wrong"): a refusal names its
 * fields as dotted paths (`body.imei`, `body.window.start`, contract FieldError) with a message in both
 * languages; the field of that name on the form (the path without `body.` / `query.`, or the form name
 * `fields` maps it to; else the longest tail of the path the form has: `body.config.volume` -> `volume`)
 * shows the message in the chosen language and is scrolled into view.
 */
import type { FieldError } from '@iot/contract';
import type { FormInstance } from 'antd';
import { getLanguage } from '../app/session';
import type { ApiError } from './client';

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
