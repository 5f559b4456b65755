/**
 * dayjs follows the UI language (imported by the console, app/Console.tsx: the sign-in page formats no
 * date and does not load dayjs).
 */
import type { Language } from '@iot/contract';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import i18n from '../i18n';

const DAYJS_LOCALE: Record<Language, string> = { 'zh-CN': 'zh-cn', 'en-US': 'en' };
const follow = (language: string) => dayjs.locale(DAYJS_LOCALE[language as Language] ?? 'zh-cn');

follow(i18n.language);
i18n.on('languageChanged', follow);
