/** The global loading overlay (fullscreen Spin) driven by the HTTP client's request tracker. */
import { Spin } from 'antd';
import { useSyncExternalStore } from 'react';
import { loading } from '../api/loading';

/** Fullscreen spinner while requests are in flight (closes 300 ms after the last ends). */
export function LoadingOverlay() {
  const visible = useSyncExternalStore(loading.subscribe, loading.isVisible);
  return <Spin spinning={visible} fullscreen />;
}
