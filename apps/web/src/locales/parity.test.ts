/**
 * Locale parity: every namespace (src/locales/<lng>/<ns>.json, loaded by name: i18n.ts)
 * exists in both languages with the same keys, and the device logs' enum labels equal the contract's
 * LOG_LABELS (which the server's exports write), and every lock downlink type has a command label.
 */
import { LOG_LABELS, protocol } from '@iot/contract';
import { describe, expect, it } from 'vitest';

type Json = { [key: string]: unknown };
const zh = import.meta.glob<Json>('./zh-CN/*.json', { eager: true, import: 'default' });
const en = import.meta.glob<Json>('./en-US/*.json', { eager: true, import: 'default' });
const names = (files: Record<string, unknown>) => Object.keys(files).map((path) => path.replace(/^.*\/(.*)\.json$/, '$1')).sort();
const keys = (value: Json, prefix = ''): string[] => Object.entries(value).flatMap(([key, inner]) =>
  (typeof inner === 'object' && inner !== null ? keys(inner as Json, `${prefix}${key}.`) : [`${prefix}${key}`]));

describe('locales', () => {
  it('have the same namespaces in both languages', () => {
    expect(names(zh).length).toBeGreaterThan(5);
    expect(names(en)).toEqual(names(zh));
  });

  it.each(names(zh))('%s has the same keys in zh-CN and en-US, no empty Chinese text', (name) => {
    const zhFile = zh[`./zh-CN/${name}.json`] as Json;
    const enFile = en[`./en-US/${name}.json`] as Json;
    expect(keys(enFile).sort()).toEqual(keys(zhFile).sort());
    const empty = (file: Json) => keys(file).filter((key) => key.split('.').reduce<unknown>((v, k) => (v as Json)[k], file) === '');
    expect(empty(zhFile)).toEqual([]); // English may leave one empty (e.g. the counter word 台)
  });

  it("carry the contract's enum labels of the device logs", () => {
    for (const language of ['zh-CN', 'en-US'] as const) {
      const file = (language === 'zh-CN' ? zh['./zh-CN/deviceLog.json'] : en['./en-US/deviceLog.json']) as Record<string, Record<string, string>>;
      for (const group of ['uplinkTypes', 'methods', 'kinds', 'eventKinds', 'airSwitchKinds', 'tripReasons', 'severities', 'states'] as const) {
        const labels = Object.fromEntries(Object.entries(LOG_LABELS[group]).map(([value, text]) => [value, text[language]]));
        expect([language, group, file[group]]).toEqual([language, group, labels]);
      }
      expect([file.success, file.failed]).toEqual([LOG_LABELS.outcome.true[language], LOG_LABELS.outcome.false[language]]);
    }
  });

  it('name every lock downlink type in the command queue and logs', () => {
    for (const file of [zh['./zh-CN/command.json'], en['./en-US/command.json']] as { types: Record<string, string> }[]) {
      expect(protocol.DOWNLINK_TYPES.filter((type) => !file.types[type])).toEqual([]);
    }
  });
});
