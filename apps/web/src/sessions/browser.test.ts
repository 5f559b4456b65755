import { describe, expect, it } from 'vitest';
import { browserSummary } from './browser';

describe('browserSummary', () => {
  it('names browser, major version and system', () => {
    expect(browserSummary('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.6723.58 Safari/537.36')).toBe('Chrome 130 · Linux');
    expect(browserSummary('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe('Firefox 133 · Windows 10');
  });
  it('keeps an unknown client readable and short', () => {
    expect(browserSummary('pms-client/1.0')).toBe('pms-client/1.0');
    expect(browserSummary(`x${'y'.repeat(100)}`)).toHaveLength(60);
    expect(browserSummary(null)).toBeUndefined();
  });
});
