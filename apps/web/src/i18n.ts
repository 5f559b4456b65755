/**
 * i18next set-up: namespaces per area (common, login, homepage, lock), Chinese first with an English
 * toggle. Resources are bundled (they are small); the language follows the stored session flag.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getLanguage } from './app/session';
import enCommon from './locales/en-US/common.json';
import enHomepage from './locales/en-US/homepage.json';
import enLock from './locales/en-US/lock.json';
import enLogin from './locales/en-US/login.json';
import zhCommon from './locales/zh-CN/common.json';
import zhHomepage from './locales/zh-CN/homepage.json';
import zhLock from './locales/zh-CN/lock.json';
import zhLogin from './locales/zh-CN/login.json';

export const resources = {
  'zh-CN': { common: zhCommon, login: zhLogin, homepage: zhHomepage, lock: zhLock },
  'en-US': { common: enCommon, login: enLogin, homepage: enHomepage, lock: enLock },
} as const;

void i18n.use(initReactI18next).init({
  resources,
  lng: getLanguage(),
  fallbackLng: 'zh-CN',
  defaultNS: 'common',
  ns: ['common', 'login', 'homepage', 'lock'],
  interpolation: { escapeValue: false },
  initAsync: false,
});

export default i18n;
