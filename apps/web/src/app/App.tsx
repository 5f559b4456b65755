/**
 * The app shell: react-query, antd ConfigProvider (locale follows the language toggle), antd App
 * (context-aware toasts for the HTTP client), the loading overlay and the router.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { useEffect } from 'react';
import { setNotifier } from '../api/notify';
import { LoadingOverlay } from './LoadingOverlay';
import { queryClient } from './queryClient';
import { AppRouter } from './router';
import { useLanguage } from './useSession';

/** Registers antd's message API as the HTTP client's notifier. */
function NotifierBridge() {
  const { message } = AntdApp.useApp();
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
    >
      <AntdApp>
        <QueryClientProvider client={queryClient}>
          <NotifierBridge />
          <LoadingOverlay />
          <AppRouter />
        </QueryClientProvider>
      </AntdApp>
    </ConfigProvider>
  );
}
