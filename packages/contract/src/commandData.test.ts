import { describe, expect, it } from 'vitest';
import { messageDataFields } from './commandData.js';

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
});
