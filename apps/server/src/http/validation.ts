/**
 * Request validation with zod schemas from the contract. A failure becomes a 400 VALIDATION_FAILED
 * listing every failing field with its message in Chinese and English (zod's own zh-CN and en locales,
 * or the contract's FIELD_MESSAGES for its own checks, e.g. text with NUL).
 */
import { FIELD_MESSAGES, type FieldError } from '@iot/contract';
import { z } from 'zod';
import { ApiError } from './api-error.js';

const zhCN = z.locales.zhCN();
const en = z.locales.en();

/** Parses `input` with `schema`; throws ApiError(VALIDATION_FAILED) with fields prefixed by `part`. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, part: 'query' | 'body' | 'params'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const zhIssues = schema.safeParse(input, { error: zhCN.localeError }).error?.issues ?? [];
  const enIssues = schema.safeParse(input, { error: en.localeError }).error?.issues ?? [];
  const errors: FieldError[] = result.error.issues.map((issue, index) => ({
    field: [part, ...issue.path.map(String)].join('.'),
    message: (Object.hasOwn(FIELD_MESSAGES, issue.message) ? FIELD_MESSAGES[issue.message] : undefined) ?? {
      'zh-CN': zhIssues[index]?.message ?? issue.message,
      'en-US': enIssues[index]?.message ?? issue.message,
    },
  }));
  throw new ApiError('VALIDATION_FAILED', errors);
}
