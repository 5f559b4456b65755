/** antd's message holder (loaded with the first toast, app/appMessage.tsx): hands its API up once mounted. */
import { message } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import { useEffect } from 'react';

/** Renders the toasts of `message.useMessage()` and passes its API to `onReady`. */
export default function MessageHolder({ onReady }: { onReady: (api: MessageInstance) => void }) {
  const [api, holder] = message.useMessage();
  useEffect(() => onReady(api), [api, onReady]);
  return holder;
}
