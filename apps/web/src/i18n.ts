/**
 * i18next set-up: one namespace per area, Chinese first with an English toggle; the language follows
 * the stored session flag. `common` and `login` ship with the app (the shell and the sign-in page);
 * every other namespace is fetched with the first page that uses it (react-i18next suspends that page
 * meanwhile), so the sign-in route carries no page's words (bench/web.ts).
 */
import i18n from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import { getLanguage } from './session/session';
import enCommon from './locales/en-US/common.json';
import enLogin from './locales/en-US/login.json';
import zhCommon from './locales/zh-CN/common.json';
import zhLogin from './locales/zh-CN/login.json';

/** Namespaces bundled with the app; the others load on demand from src/locales/<lng>/<ns>.json. */
export const resources = {
  'zh-CN': { common: zhCommon, login: zhLogin },
  'en-US': { common: enCommon, login: enLogin },
} as const;

/** The other namespaces, loaded on demand (vite.chunks.ts puts one language's namespaces in one file). */
const onDemand = import.meta.glob<object>(['./locales/*/*.json', '!./locales/*/common.json', '!./locales/*/login.json'], { import: 'default' });

void i18n
  .use(resourcesToBackend((language: string, namespace: string) =>
    (resources as Record<string, Record<string, object>>)[language]?.[namespace] ?? onDemand[`./locales/${language}/${namespace}.json`]?.()))
  .use(initReactI18next)
  .init({
    resources,
    partialBundledLanguages: true,
    lng: getLanguage(),
    fallbackLng: 'zh-CN',
    defaultNS: 'common',
    ns: ['common', 'login'],
    interpolation: { escapeValue: false },
    initAsync: false,
  });

export default i18n;

/** Starts loading the current language's on-demand words (one file) before the console's first page asks for them. */
export function preloadWords(): void {
  const prefix = `./locales/${getLanguage()}/`;
  const first = Object.keys(onDemand).find((path) => path.startsWith(prefix));
  if (first) void onDemand[first]?.();
}
