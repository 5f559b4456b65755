/**
 * Accessibility of every console page: axe-core (the engine of Lighthouse's accessibility audit) runs on
 * each route of the contract, signed in as the administrator against the simulated fleet, and no
 * serious or critical WCAG 2.0/2.1 A or AA violation may remain: contrast, names of controls (labels,
 * progress bars), landmarks, heading order, a tab list holding only tabs. One finding is antd's own markup
 * and is not ours to change: `aria-hidden-focus` on `.ant-table-measure-row`, the hidden row antd
 * measures fixed columns with.
 * The pages are walked in-app, as a menu click does; axe is evaluated through the DevTools protocol
 * (the console's Content-Security-Policy refuses inline scripts, rightly).
 */
import { ROUTES } from '@iot/contract';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { goInApp, hasChromium, useSignedInPage } from './browser.js';

const AXE_SOURCE = axe.source;
const ACCEPTED = [
  { rule: 'aria-hidden-focus', target: '.ant-table-measure-row' },
];

interface Violation { id: string; impact: string | null; nodes: { target: string[] }[] }

describe.skipIf(!hasChromium)('accessibility of every page (axe-core, WCAG 2.1 A and AA)', () => {
  const signedIn = useSignedInPage();

  it('no serious or critical violation on any console route', async () => {
    const { page } = signedIn;
    const found: string[] = [];
    for (const route of ROUTES.filter((entry) => entry.frame !== 'bare')) {
      await goInApp(page, route.path);
      // Settled: the page's first data drawn (no skeleton), and the pointer off the page (no hover colours).
      await page.locator('.server-table-loading, .ant-skeleton').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
      await page.mouse.move(1, 1);
      await page.waitForTimeout(400);
      if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } }).axe;
        return (await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })).violations;
      });
      for (const violation of violations) {
        if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
        const nodes = violation.nodes.map((node) => node.target.join(' '))
          .filter((target) => !ACCEPTED.some((accepted) => accepted.rule === violation.id && target.includes(accepted.target)));
        if (nodes.length > 0) found.push(`${route.path} ${violation.id} (${violation.impact}): ${nodes.slice(0, 3).join(' ; ')}`);
      }
    }
    expect(found).toEqual([]);
  }, 240_000);
});
