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

/**
 * Loads every on-demand namespace of the current language (one words file) through i18next's backend
 * before the console's first page asks for them. Otherwise each namespace a page meets for the first
 * time suspends that page while i18next reads it, one suspension per namespace, each a render thrown away:
 * the lock list was drawn, hidden and drawn again when its rows met 'billing' (bench/RESULTS.md, 2026-12-01).
 */
export function preloadWords(): Promise<void> {
  const prefix = `./locales/${getLanguage()}/`;
  const namespaces = Object.keys(onDemand).filter((path) => path.startsWith(prefix)).map((path) => path.slice(prefix.length, -'.json'.length));
  // A failed load is not an error here: the page's own request for its words reports it.
  return i18n.loadNamespaces(namespaces).catch(() => undefined);
}
