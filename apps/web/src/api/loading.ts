/**
 * Global loading overlay state (spec §4): shown when the first concurrent request starts, closed
 * LOADING_CLOSE_DEBOUNCE_MS after the last one ends. Failed requests count as ended too.
 */
import { LOADING_CLOSE_DEBOUNCE_MS } from '@iot/contract';

/** A counter of requests in flight with a debounced "visible" flag. */
export function createLoadingTracker(closeDelayMs = LOADING_CLOSE_DEBOUNCE_MS) {
  let pending = 0;
  let visible = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();
  const setVisible = (next: boolean) => {
    if (visible === next) return;
    visible = next;
    for (const listener of listeners) listener();
  };
  return {
    /** A request started. */
    begin(): void {
      pending += 1;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      setVisible(true);
    },
    /** A request ended (success or failure). */
    end(): void {
      pending = Math.max(0, pending - 1);
      if (pending > 0) return;
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        if (pending === 0) setVisible(false);
      }, closeDelayMs);
    },
    isVisible: (): boolean => visible,
    /** Subscribes to visibility changes (useSyncExternalStore-compatible). */
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The app-wide tracker used by the HTTP client and the overlay. */
export const loading = createLoadingTracker();
