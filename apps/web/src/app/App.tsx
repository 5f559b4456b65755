/**
 * The app shell: react-query, context-aware toasts for the HTTP client (MessageProvider) and the
 * router. Nothing of antd: the sign-in page draws without it, and the console brings antd's
 * ConfigProvider (locale and the forms' check messages follow the language toggle) and the loading
 * overlay itself (app/Console.tsx), so the first page a newcomer opens loads a fraction of the code (bench/lighthouse.ts).
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { setNotifier } from '../api/notify';
import { MessageProvider, useMessage } from '../components/appMessage';
import { queryClient } from '../api/queryClient';
import { onSignOut } from '../session/signOut';
import { clearTabs } from './layout/useTabs';
import { AppRouter } from './router';

// Every sign-out empties the tab strip, also one on a page without the console layout (the big screen).
onSignOut(clearTabs);

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
  return (
    <MessageProvider>
      <div className="app-root">
        <QueryClientProvider client={queryClient}>
          <NotifierBridge />
          <AppRouter />
        </QueryClientProvider>
      </div>
    </MessageProvider>
  );
}
