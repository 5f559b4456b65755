/** Switches the UI language: i18next, the stored flag, dayjs and <html lang> follow together. */
import type { Language } from '@iot/contract';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import i18n from '../i18n';
import { getLanguage, setLanguage } from './session';

const DAYJS_LOCALE: Record<Language, string> = { 'zh-CN': 'zh-cn', 'en-US': 'en' };

/** Applies a language everywhere (antd's locale follows via ConfigProvider in App). */
export function applyLanguage(language: Language): void {
  setLanguage(language);
  dayjs.locale(DAYJS_LOCALE[language]);
  document.documentElement.lang = language;
  void i18n.changeLanguage(language);
}

/** Applies the stored language at start-up. */
export function initLanguage(): void {
  applyLanguage(getLanguage());
}
