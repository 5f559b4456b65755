/**
 * The console's toasts: antd's message API from `message.useMessage()` (it follows ConfigProvider's
 * locale and theme), shared through a context. Not antd's App component: that also brings Modal,
 * notification and Skeleton into every first load (~25 KiB, bench/web.ts); a confirmation dialog
 * takes `Modal.useModal()` where it is used (MoreActions).
 */
import { message } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import { createContext, type ReactNode, useContext } from 'react';

const MessageContext = createContext<MessageInstance | null>(null);

/** Provides the message API to `useMessage` below it, with the toasts' holder. */
export function MessageProvider({ children }: { children: ReactNode }) {
  const [api, holder] = message.useMessage();
  return (
    <MessageContext.Provider value={api}>
      {holder}
      {children}
    </MessageContext.Provider>
  );
}

/** The message API (success, error, warning, open, ...) of the nearest MessageProvider. */
export function useMessage(): MessageInstance {
  const api = useContext(MessageContext);
  if (!api) throw new Error('useMessage outside MessageProvider');
  return api;
}
