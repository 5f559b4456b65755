/**
 * Entry point: language, layout scale, styles; when signed in, the console's code, the page's code and
 * its words, the user info and its first data start loading at once (app/router.tsx preloadConsole);
 * then the app.
 */
import { WEB_BASE_PATH } from '@iot/contract';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import { App } from './app/App';
import { initLanguage } from './session/language';
import { preloadConsole } from './app/router';
import { installScale } from './app/scale';
import './styles.css';

initLanguage();
installScale();
preloadConsole(window.location.pathname.slice(WEB_BASE_PATH.length) || '/', window.location.search);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
