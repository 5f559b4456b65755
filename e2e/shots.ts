/**
 * Screenshots of a console page as the house rules ask (1366x768 and 1920x1080, zh-CN and en-US), for
 * e2e files run with E2E_SCREENSHOT_DIR: `{dir}/{name}-{zh|en}-{width}x{height}.png`. The page is left
 * in Chinese at the e2e viewport (1600 x 900).
 */
import type { Page } from 'playwright-core';

const VIEWPORTS = [{ width: 1366, height: 768 }, { width: 1920, height: 1080 }] as const;

export interface ShotOptions {
  /** A text shown once the console is in English / back in Chinese. */
  en: RegExp;
  zh: RegExp;
  /** Brings the view to show (open a dialog, scroll to a card) before each shot; `after` undoes it. */
  before?: () => Promise<void>;
  after?: () => Promise<void>;
}

/** Takes the four screenshots of what the page shows as `name` into `dir`. */
export async function shootBothLanguages(page: Page, dir: string, name: string, options: ShotOptions): Promise<void> {
  const toggle = page.locator('.console-header-right').getByRole('button', { name: /English|中文/ });
  for (const language of ['zh', 'en'] as const) {
    if (language === 'en') {
      await toggle.click();
      await page.getByText(options.en).first().waitFor();
    }
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await options.before?.();
      await page.waitForTimeout(500); // layout, animations and toasts settle
      await page.screenshot({ path: `${dir}/${name}-${language}-${viewport.width}x${viewport.height}.png` });
      await options.after?.();
    }
  }
  await toggle.click();
  await page.getByText(options.zh).first().waitFor();
  await page.setViewportSize({ width: 1600, height: 900 });
}
