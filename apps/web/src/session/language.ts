/** Switches the UI language: i18next, the stored flag and <html lang> follow together (dayjs too, app/dayjsLocale.ts). */
import type { Language } from '@iot/contract';
import i18n from '../i18n';
import { getLanguage, setLanguage } from './session';

/** Applies a language everywhere (antd's locale follows via ConfigProvider in app/Console.tsx). */
export function applyLanguage(language: Language): void {
  setLanguage(language);
  document.documentElement.lang = language;
  void i18n.changeLanguage(language);
}

/** Applies the stored language at start-up. */
export function initLanguage(): void {
  applyLanguage(getLanguage());
}
