/**
 * The app shell: react-query, antd ConfigProvider (locale and the forms' check messages follow the
 * language toggle, components/formRules.ts), context-aware
 * toasts for the HTTP client (MessageProvider), the loading overlay and the router.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { useEffect } from 'react';
import { setNotifier } from '../api/notify';
import { validateMessages } from '../components/formRules';
import { MessageProvider, useMessage } from './appMessage';
import { LoadingOverlay } from './LoadingOverlay';
import { queryClient } from './queryClient';
import { AppRouter } from './router';
import { useLanguage } from './useSession';

/** Registers antd's message API as the HTTP client's notifier. */
function NotifierBridge() {
  const message = useMessage();
  useEffect(() => {
    setNotifier({
      error: (content, key) => void message.open({ type: 'error', content, key }),
      warning: (content, key) => void message.open({ type: 'warning', content, key }),
    });
  }, [message]);
  return null;
}

/** Root component. */
export function App() {
  const language = useLanguage();
  return (
    <ConfigProvider
      locale={language === 'en-US' ? enUS : zhCN}
      theme={{ token: { colorPrimary: '#1668dc' } }}
      button={{ autoInsertSpace: false }}
      form={{ validateMessages: validateMessages() }}
    >
      <MessageProvider>
        <div className="app-root">
        <QueryClientProvider client={queryClient}>
          <NotifierBridge />
          <LoadingOverlay />
          <AppRouter />
        </QueryClientProvider>
        </div>
      </MessageProvider>
    </ConfigProvider>
  );
}
