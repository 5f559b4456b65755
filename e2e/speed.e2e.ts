/**
 * In Chromium against the started server: a typed search sends one
 * request per pause in typing, not one per keystroke (components/useDebouncedSearch.ts).
 */
import { describe, expect, it } from 'vitest';
import { goInApp, hasChromium, useSignedInPage } from './browser.js';
import { E2E_SLEEPING_IMEI } from './global-setup.js';

describe.skipIf(!hasChromium)('speed a person feels', () => {
  const signedIn = useSignedInPage();

  it('typing an IMEI into a lock picker sends one search, not one per keystroke', async () => {
    const { page } = signedIn;
    await goInApp(page, '/lockJournal');
    const searches: string[] = [];
    page.on('request', (request) => {
      const requested = new URL(request.url());
      const keyword = requested.searchParams.get('keyword');
      if (requested.pathname.endsWith('/lockDevice/lockRoomList') && keyword) searches.push(keyword);
    });
    const input = page.locator('#lock-select');
    await input.click();
    // Start from an empty box (a retry finds the previous attempt's text); clearing it sends no keyword.
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    // The unfiltered list may already show this lock, so wait for the search itself, not only for its option.
    const searched = page.waitForRequest((request) => {
      const requested = new URL(request.url());
      return requested.pathname.endsWith('/lockDevice/lockRoomList') && requested.searchParams.get('keyword') === E2E_SLEEPING_IMEI;
    }, { timeout: 15_000 });
    try {
      await page.keyboard.type(E2E_SLEEPING_IMEI); // 15 keystrokes
      await searched;
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: E2E_SLEEPING_IMEI }).first().waitFor({ timeout: 15_000 });
      await page.waitForTimeout(1000); // nothing more is sent once typing has stopped
      expect(searches).toEqual([E2E_SLEEPING_IMEI]);
    } finally {
      await page.keyboard.press('Escape');
    }
  });
});
