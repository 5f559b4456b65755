/**
 * The global loading overlay (fullscreen Spin) driven by the HTTP client's request tracker (spec §4:
 * on with the first request, off 300 ms after the last; api/loading.ts). It is drawn only when the
 * tracker has been on for OVERLAY_DELAY_MS (antd Spin `delay`, made to "prevent flush"): the console's
 * requests mostly answer in 35-120 ms, and a mask flashed over every page as it loaded, between its
 * skeleton and its table. A slow request still gets the overlay.
 */
import { Spin } from 'antd';
import { useSyncExternalStore } from 'react';
import { loading } from '../api/loading';

/** How long the tracker must have been on before the overlay is drawn, ms. */
export const OVERLAY_DELAY_MS = 500;

/** Fullscreen spinner while requests are in flight (closes 300 ms after the last ends). */
export function LoadingOverlay() {
  const visible = useSyncExternalStore(loading.subscribe, loading.isVisible);
  return <Spin spinning={visible} delay={OVERLAY_DELAY_MS} fullscreen />;
}
