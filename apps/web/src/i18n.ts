/**
 * i18next set-up: namespaces per area (common, login, homepage, lock), Chinese first with an English
 * toggle. Resources are bundled (they are small); the language follows the stored session flag.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getLanguage } from './app/session';
import enAccount from './locales/en-US/account.json';
import enCommon from './locales/en-US/common.json';
import enDeviceLog from './locales/en-US/deviceLog.json';
import enHomepage from './locales/en-US/homepage.json';
import enLock from './locales/en-US/lock.json';
import enCommand from './locales/en-US/command.json';
import enCredential from './locales/en-US/credential.json';
import enLogin from './locales/en-US/login.json';
import enRole from './locales/en-US/role.json';
import enSystemLog from './locales/en-US/systemLog.json';
import zhAccount from './locales/zh-CN/account.json';
import zhCommon from './locales/zh-CN/common.json';
import zhDeviceLog from './locales/zh-CN/deviceLog.json';
import zhHomepage from './locales/zh-CN/homepage.json';
import zhLock from './locales/zh-CN/lock.json';
import zhCommand from './locales/zh-CN/command.json';
import zhCredential from './locales/zh-CN/credential.json';
import zhLogin from './locales/zh-CN/login.json';
import zhRole from './locales/zh-CN/role.json';
import zhSystemLog from './locales/zh-CN/systemLog.json';

export const resources = {
  'zh-CN': { account: zhAccount, role: zhRole, systemLog: zhSystemLog, common: zhCommon, login: zhLogin, homepage: zhHomepage, lock: zhLock, deviceLog: zhDeviceLog, command: zhCommand, credential: zhCredential },
  'en-US': { account: enAccount, role: enRole, systemLog: enSystemLog, common: enCommon, login: enLogin, homepage: enHomepage, lock: enLock, deviceLog: enDeviceLog, command: enCommand, credential: enCredential },
} as const;

void i18n.use(initReactI18next).init({
  resources,
  lng: getLanguage(),
  fallbackLng: 'zh-CN',
  defaultNS: 'common',
  ns: ['account', 'role', 'systemLog', 'common', 'login', 'homepage', 'lock', 'deviceLog', 'command', 'credential'],
  interpolation: { escapeValue: false },
  initAsync: false,
});

export default i18n;
