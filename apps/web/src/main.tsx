/** Entry point: language, layout scale, styles, then the app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import { App } from './app/App';
import { initLanguage } from './app/language';
import { installScale } from './app/scale';
import './styles.css';

initLanguage();
installScale();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
