/** The big screen's times (screenTime.ts) are those of the data centre's zone (default Asia/Shanghai), whatever the process's zone. */
import { describe, expect, it } from 'vitest';
import { setTimeZone } from '../lib/timeZone';
import { screenDate, screenHour, screenTime, screenWeekday } from './screenTime';

describe('screen times', () => {
  it('shows 21:08:33 UTC on Wednesday 25 November as Thursday 26 November 05:08:33 in Asia/Shanghai', () => {
    const at = '2026-11-25T21:08:33Z';
    expect(screenDate(at)).toBe('2026-11-26');
    expect(screenTime(at)).toBe('05:08:33');
    expect(screenHour(Date.parse(at))).toBe('05');
    expect(screenWeekday(new Date(at), 'zh-CN')).toBe('星期四');
    expect(screenWeekday(at, 'en-US')).toBe('Thursday');
  });

  it('follows the data centre\'s zone once the user info sets it', () => {
    setTimeZone('Europe/London');
    try {
      expect(screenTime('2026-11-25T21:08:33Z')).toBe('21:08:33');
      expect(screenDate('2026-11-25T21:08:33Z')).toBe('2026-11-25');
    } finally {
      setTimeZone('Asia/Shanghai');
    }
  });
});
