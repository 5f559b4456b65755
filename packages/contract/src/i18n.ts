/** Languages of the console: Chinese first, English toggle. */
export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];
/** A text in every language of the console. */
export type LocalizedText = Record<Language, string>;

/** A text in Chinese and English: the one helper every label, header and error message is built with. */
export const localized = (zh: string, en: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en });

/** Picks the language from an Accept-Language header value; Chinese unless English is preferred. */
export function languageFromHeader(header: string | undefined): Language {
  if (!header) return 'zh-CN';
  const first = header.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en-US' : 'zh-CN';
}

/** A list in `language`: 甲、乙、丙 in Chinese, "a, b, c" in English (never the Chinese separator in English). */
export function listText(items: readonly string[], language: Language): string {
  return items.join(language === 'zh-CN' ? '、' : ', ');
}
