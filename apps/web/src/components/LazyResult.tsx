/**
 * antd Result, loaded when first shown: it is drawn only on errors (403, page crash, user info
 * failure), and its illustrations would cost every first load ~9 KiB (bench/web.ts).
 */
import type { ResultProps } from 'antd';
import { lazy, Suspense } from 'react';

const AntdResult = lazy(() => import('antd/es/result'));

/** antd Result with the same props, rendered once its code has loaded. */
export function Result(props: ResultProps) {
  return <Suspense fallback={null}><AntdResult {...props} /></Suspense>;
}
