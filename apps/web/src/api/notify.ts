/**
 * Bridge from non-React code (the HTTP client) to antd's context-aware message API.
 * The App registers its message API (components/appMessage.tsx); until then messages fall back to the console.
 */
export interface Notifier {
  error(content: string, key?: string): void;
  warning(content: string, key?: string): void;
}

let current: Notifier = {
  error: (content) => console.error(content),
  warning: (content) => console.warn(content),
};

/** Registers the notifier (called once by the App shell). */
export function setNotifier(notifier: Notifier): void {
  current = notifier;
}

/** Shows an error toast; the same key replaces an earlier toast instead of stacking. */
export function notifyError(content: string, key?: string): void {
  current.error(content, key);
}

/** Shows a warning toast. */
export function notifyWarning(content: string, key?: string): void {
  current.warning(content, key);
}
