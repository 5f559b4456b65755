/**
 * antd's message holder (loaded with the first toast, components/appMessage.tsx): hands its API up once
 * mounted. Its own ConfigProvider gives the toasts the console's theme and locale on every page,
 * the sign-in page included, which has no antd ConfigProvider above it.
 */
import { ConfigProvider, message } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import { useEffect } from 'react';
import { CONSOLE_THEME } from './theme';

/** Renders the toasts of `message.useMessage()` and passes its API to `onReady`. */
export default function MessageHolder({ onReady }: { onReady: (api: MessageInstance) => void }) {
  return (
    <ConfigProvider theme={CONSOLE_THEME}>
      <Holder onReady={onReady} />
    </ConfigProvider>
  );
}

function Holder({ onReady }: { onReady: (api: MessageInstance) => void }) {
  const [api, holder] = message.useMessage();
  useEffect(() => onReady(api), [api, onReady]);
  return holder;
}
