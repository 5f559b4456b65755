import { describe, expect, it } from 'vitest';
import { MESSAGE_FIELD_LABELS, messageDataFields } from './commandData.js';
import * as protocol from './protocol/index.js';

describe('messageDataFields', () => {
  it('labels, translates and flattens a command\'s data in both languages', () => {
    const data = { action: 'add', slot: 3, password: '******', oneTime: true, validTo: 1_795_406_220_000, config: { volume: 40, language: 'en-US' }, mystery: 'x' };
    expect(messageDataFields(data, 'zh-CN').map((f) => [f.label, f.value, f.time ?? false])).toEqual([
      ['操作', '添加', false], ['槽位', '3', false], ['密码', '******', false], ['一次性', '是', false],
      ['失效时间', '1795406220000', true], ['音量', '40%', false], ['语言', '英文', false], ['mystery', 'x', false],
    ]);
    expect(messageDataFields({ method: 'card', success: false, door: 'open', code: 5 }, 'en-US').map((f) => `${f.label} ${f.value}`))
      .toEqual(['Method Card', 'Result Failed', 'Door Open', 'Result Lock storage full']);
  });

  it('labels every field of every lock and air-switch message in both languages (no key shown as its own label)', () => {
    const unlabelled: string[] = [];
    const visit = (name: string, schema: unknown) => {
      const shape = (schema as { shape?: Record<string, unknown> }).shape ?? {};
      for (const key of Object.keys(shape)) if (key !== 'config' && !MESSAGE_FIELD_LABELS[key]) unlabelled.push(`${name}.${key}`);
    };
    for (const [name, schema] of Object.entries(protocol.downlinkData)) visit(name, schema);
    for (const [name, schema] of Object.entries(protocol)) if (name.endsWith('Data')) visit(name, schema);
    expect(unlabelled).toEqual([]);
    expect(messageDataFields({ userType: 'expiringUser', credentialRule: 'single', expiringMinutes: 1440 }, 'en-US').map((f) => `${f.label} ${f.value}`))
      .toEqual(['User type Expiring', 'Credential rule Single', 'Expires after first use (min) 1440']);
    expect(messageDataFields({ table: 'cards' }, 'zh-CN').map((f) => `${f.label} ${f.value}`)).toEqual(['凭证类型 卡片']);
  });
});
