import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import i18n, { preloadWords } from './i18n';

describe('preloadWords', () => {
  it('hands every namespace of the language to i18next at once, so no page suspends for its words', async () => {
    const namespaces = readdirSync(join(import.meta.dirname, 'locales/zh-CN')).map((file) => file.replace(/\.json$/, ''));
    expect(namespaces.length).toBeGreaterThan(20);
    expect(i18n.hasResourceBundle('zh-CN', 'lock')).toBe(false);
    await preloadWords();
    for (const namespace of namespaces) expect(i18n.hasResourceBundle('zh-CN', namespace), namespace).toBe(true);
    expect(i18n.hasLoadedNamespace('billing')).toBe(true);
    expect(i18n.t('lock:imei')).not.toBe('imei');
  });
});
