/**
 * The console's toasts: antd's message API from `message.useMessage()` (it follows ConfigProvider's
 * locale and theme), shared through a context. Not antd's App component: that also brings Modal,
 * notification and Skeleton into every first load (~25 KiB, bench/web.ts); a confirmation dialog
 * takes `Modal.useModal()` where it is used (MoreActions). The message code itself (~12 KiB) loads with
 * the first toast: calls made before it has loaded are queued and shown when it has.
 */
import type { MessageInstance } from 'antd/es/message/interface';
import { createContext, lazy, type ReactNode, Suspense, useCallback, useContext, useMemo, useRef, useState } from 'react';

const MessageHolder = lazy(() => import('./MessageHolder'));
const METHODS = ['open', 'success', 'error', 'info', 'warning', 'loading', 'destroy'] as const;
type Call = (api: MessageInstance) => void;

const MessageContext = createContext<MessageInstance | null>(null);

/** Provides the message API to `useMessage` below it, with the toasts' holder once one is shown. */
export function MessageProvider({ children }: { children: ReactNode }) {
  const [wanted, setWanted] = useState(false);
  const real = useRef<MessageInstance | null>(null);
  const queue = useRef<Call[]>([]);
  const api = useMemo(() => {
    const run = (call: Call) => {
      if (real.current) return call(real.current);
      queue.current.push(call);
      setWanted(true);
    };
    const method = (name: (typeof METHODS)[number]) => (...args: unknown[]) =>
      void run((target) => (target[name] as (...a: unknown[]) => unknown)(...args));
    return Object.fromEntries(METHODS.map((name) => [name, method(name)])) as unknown as MessageInstance;
  }, []);
  const ready = useCallback((loaded: MessageInstance) => {
    real.current = loaded;
    for (const call of queue.current.splice(0)) call(loaded);
  }, []);
  return (
    <MessageContext.Provider value={api}>
      {wanted && <Suspense fallback={null}><MessageHolder onReady={ready} /></Suspense>}
      {children}
    </MessageContext.Provider>
  );
}

/** The message API (success, error, warning, open, destroy, ...) of the nearest MessageProvider. */
export function useMessage(): MessageInstance {
  const api = useContext(MessageContext);
  if (!api) throw new Error('useMessage outside MessageProvider');
  return api;
}
