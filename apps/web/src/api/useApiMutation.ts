/**
 * The one hook for the console's writes: react-query `useMutation` around a write, with
 * - a success toast (`success`: text, or a function of the result and variables; undefined: no toast),
 * - invalidation of every cached query of `invalidate` after the write, whether it succeeded or not
 *   (a refused write may still have changed what the list shows, e.g. a state that moved on),
 * - errors: an ApiError was already toasted by the HTTP client with the server's own message (unless the
 *   call was `quiet`); any other error (e.g. no crypto for a password) is toasted with `errorText(error)`
 *   when given. With `form`, every field the server names (`body.imei`, `body.customerCode`) that is on
 *   the form is marked with its message in the chosen language (markFieldErrors), `fields` mapping
 *   server names to form names where they differ.
 * `run(vars)` resolves to the result, or undefined after a failure (never rejects: for Popconfirm /
 * Modal handlers); `mutateAsync` keeps react-query's rejecting form for callers that branch on errors.
 */
import type { Endpoint } from '@iot/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormInstance } from 'antd';

import { useCallback } from 'react';
import { ApiError } from './client';
import { useMessage } from '../components/appMessage';
import { markFieldErrors } from './fieldErrors';

export interface ApiMutationOptions<V, T> {
  /** The write: usually `(vars) => call(endpoint, { body: vars })`. */
  mutationFn(vars: V): Promise<T>;
  /** Success toast. */
  success?: string | ((result: T, vars: V) => string | undefined);
  /** Endpoints whose cached queries (any parameters) are refetched after the write. */
  invalidate?: readonly Endpoint[];
  /** Toast text of an error the HTTP client did not show (not an ApiError, or a quiet call). */
  errorText?(error: unknown): string | undefined;
  /** The form whose fields the server's field errors are marked on. */
  form?: FormInstance;
  /** Server field (e.g. `body.lockIds`) -> form field name, where they differ. */
  fields?: Readonly<Record<string, string>>;
  onSuccess?(result: T, vars: V): void;
  onError?(error: unknown, vars: V): void;
}

/** A write with toasts and invalidation; see the module comment. */
export function useApiMutation<V = void, T = unknown>(options: ApiMutationOptions<V, T>) {
  const client = useQueryClient();
  const message = useMessage();
  const mutation = useMutation<T, unknown, V>({
    mutationFn: options.mutationFn,
    onSuccess: (result, vars) => {
      const text = typeof options.success === 'function' ? options.success(result, vars) : options.success;
      if (text) message.success(text);
      options.onSuccess?.(result, vars);
    },
    onError: (error, vars) => {
      const text = options.errorText?.(error) ?? (error instanceof ApiError ? undefined : String(error));
      if (text) message.error(text);
      if (options.form && error instanceof ApiError) markFieldErrors(options.form, error, options.fields);
      options.onError?.(error, vars);
    },
    onSettled: async () => {
      await Promise.all((options.invalidate ?? []).map((endpoint) => client.invalidateQueries({ queryKey: [endpoint.path] })));
    },
  });
  const { mutateAsync } = mutation;
  const run = useCallback((vars: V): Promise<T | undefined> => mutateAsync(vars).catch(() => undefined), [mutateAsync]);
  return { ...mutation, run };
}
