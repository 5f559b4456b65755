/**
 * Lighthouse benchmark: builds the console and the server for
 * production, starts the compiled server (DEMO=on, captcha off, a few simulated locks), waits until its
 * start-up work has settled (bench/cpu.ts waitQuiet) and audits, in
 * Debian Chromium with Lighthouse's own throttling profiles:
 * - the sign-in page, mobile and desktop profiles: performance >= 90 (mobile) and >= 98 (desktop),
 *   at most 15 requests;
 * - the home page signed in, mobile profile: performance >= 80;
 * - a list page (门锁信息 /lockInfo) signed in, desktop profile: largest contentful paint <= 1,000 ms.
 * Each audit runs LIGHTHOUSE_RUNS times (default 3); the run with the median performance score counts.
 * Its report (screenshots removed, gzipped: `zcat` it or open it in the Lighthouse viewer) is written to
 * bench/lighthouse/<audit>.json.gz (LIGHTHOUSE_OUT: another folder) and every figure to summary.json there, with the machine's load average (Lighthouse's simulated throttling
 * scales with the CPU it gets: compare figures of one run, not across busy and quiet machines).
 * LIGHTHOUSE_SKIP_BUILD=1 reuses apps/web/dist and apps/server/dist; LIGHTHOUSE_ONLY=home-mobile,... runs only the
 * audits named (summary.json then holds only those). Exits 1 when a budget is missed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import lighthouse, { desktopConfig, type Config, type Result } from 'lighthouse';
import { chromium } from 'playwright-core';
import { freePort, startServer } from '../apps/server/integration/server-process.js';
import { waitQuiet } from './cpu.js';

const root = join(import.meta.dirname, '..');
const out = process.env.LIGHTHOUSE_OUT ?? join(import.meta.dirname, 'lighthouse');
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

interface Audit {
  name: string;
  path: string;
  profile: 'mobile' | 'desktop';
  signedIn: boolean;
  /** Budgets: minimum performance score (0-100), maximum LCP (ms), maximum requests. */
  budget: { performance?: number; lcpMs?: number; requests?: number };
}
const AUDITS: Audit[] = [
  { name: 'sign-in-mobile', path: '/login', profile: 'mobile', signedIn: false, budget: { performance: 90, requests: 15 } },
  { name: 'sign-in-desktop', path: '/login', profile: 'desktop', signedIn: false, budget: { performance: 98, requests: 15 } },
  { name: 'home-mobile', path: '/homepage', profile: 'mobile', signedIn: true, budget: { performance: 80 } },
  { name: 'list-desktop', path: '/lockInfo', profile: 'desktop', signedIn: true, budget: { lcpMs: 1000 } },
];

/** The figures kept of one Lighthouse report. */
function figuresOf(lhr: Result) {
  const ms = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? Number.NaN);
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? Number.NaN) * 100);
  const diagnostics = (lhr.audits.diagnostics?.details as { items?: { numRequests?: number; totalByteWeight?: number }[] } | undefined)?.items?.[0];
  return {
    performance: score('performance'), accessibility: score('accessibility'), bestPractices: score('best-practices'),
    fcpMs: ms('first-contentful-paint'), lcpMs: ms('largest-contentful-paint'), tbtMs: ms('total-blocking-time'),
    speedIndexMs: ms('speed-index'), cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN).toFixed(3)),
    requests: diagnostics?.numRequests ?? Number.NaN, transferKiB: Math.round((diagnostics?.totalByteWeight ?? Number.NaN) / 1024),
    failing: Object.values(lhr.categories).flatMap((category) => category.auditRefs)
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 0.9).map((ref) => ref.id),
  };
}
type Figures = ReturnType<typeof figuresOf>;

/** Drops the base64 screenshots (most of a report's size) so a report can be kept in the repository. */
function withoutScreenshots(lhr: Result): Result {
  const audits = Object.fromEntries(Object.entries(lhr.audits).filter(([id]) => !['screenshot-thumbnails', 'final-screenshot', 'full-page-screenshot'].includes(id)));
  return { ...lhr, audits, fullPageScreenshot: undefined, i18n: { ...lhr.i18n, icuMessagePaths: {} } };
}

/** Starts Debian Chromium with remote debugging on a free port; resolves its port and a stop function. */
async function startChrome(): Promise<{ port: number; stop: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'bench-lighthouse-chrome-'));
  const chrome = spawn(chromePath, [...CHROME_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    let text = '';
    chrome.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(text);
      if (match) resolve(Number(match[1]));
    });
    chrome.once('exit', (code) => reject(new Error(`chromium exited (${code}): ${text}`)));
  });
  // Its profile is removed once it has exited: removed while it still writes, rmSync fails (ENOTEMPTY).
  const exited = new Promise((resolve) => chrome.once('exit', resolve));
  return { port, stop: async () => { chrome.kill('SIGKILL'); await exited; rmSync(profile, { recursive: true, force: true, maxRetries: 3 }); } };
}

const median = <T>(items: T[], key: (item: T) => number): T => [...items].sort((a, b) => key(a) - key(b))[Math.floor(items.length / 2)] as T;
const load = () => loadavg().map((value) => value.toFixed(2)).join(' ');

if (process.env.LIGHTHOUSE_SKIP_BUILD !== '1') {
  for (const [label, command, args] of [['web', 'npx', ['vite', 'build', '--logLevel', 'warn']], ['server', process.execPath, [join(root, 'scripts/server-build.mjs')]]] as const) {
    const cwd = label === 'web' ? join(root, 'apps/web') : root;
    if (spawnSync(command, [...args], { cwd, stdio: 'inherit' }).status !== 0) throw new Error(`${label} build failed`);
  }
}
const dataDir = mkdtempSync(join(tmpdir(), 'bench-lighthouse-'));
const password = 'bench-admin-password';
const port = await freePort();
const server = await startServer({ PORT: String(port), DATA_DIR: dataDir, MQTT_PORT: '0', SIM_LOCKS: '10', SIM_AIR_SWITCHES: '0',
  SIM_OUTAGES: 'off', ADMIN_PASSWORD: password, LOG_LEVEL: 'warn' }, 180_000, { compiled: true });
const base = `http://localhost:${port}/api`; // localhost: a secure context, as the sign-in's WebCrypto needs
// The demo fleet's start-up work (seconds of both cores) would be measured as the first audit's page load.
const settledMs = await waitQuiet(server.pid);
const chrome = await startChrome();
const results: Record<string, Figures & { runs: number[]; loadAverage: string }> = {};
let failed = false;
let signedIn = false;
try {
  console.log(`lighthouse: ${base}, server quiet after ${(settledMs / 1000).toFixed(0)} s, ${runs} run(s) per audit, ${cpus().length} CPUs, load average ${load()}`);
  mkdirSync(out, { recursive: true });
  const only = process.env.LIGHTHOUSE_ONLY?.split(',');
  for (const audit of AUDITS.filter((entry) => !only || only.includes(entry.name))) {
    if (audit.signedIn && !signedIn) {
      signedIn = true;
      // Sign in once through the page (the session lives in localStorage, which Lighthouse keeps).
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const page = await (browser.contexts()[0] ?? (await browser.newContext())).newPage();
      await page.goto(`${base}/login`);
      await page.fill('#username', 'admin');
      await page.fill('#password', password);
      await page.click('button[type=submit]');
      await page.waitForURL(/\/homepage$/, { timeout: 60_000 });
      await page.close();
    }
    const config: Config | undefined = audit.profile === 'desktop' ? desktopConfig : undefined;
    const reports: { lhr: Result; figures: Figures; loadAverage: string }[] = [];
    for (let run = 0; run < runs; run += 1) {
      const result = await lighthouse(`${base}${audit.path}`, { port: chrome.port, output: 'json', logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'] }, config);
      if (!result) throw new Error(`no Lighthouse result for ${audit.name}`);
      reports.push({ lhr: result.lhr, figures: figuresOf(result.lhr), loadAverage: load() });
    }
    const chosen = median(reports, (report) => report.figures.performance);
    writeFileSync(join(out, `${audit.name}.json.gz`), gzipSync(JSON.stringify(withoutScreenshots(chosen.lhr))));
    results[audit.name] = { ...chosen.figures, runs: reports.map((report) => report.figures.performance), loadAverage: chosen.loadAverage };
    const misses = [
      audit.budget.performance !== undefined && chosen.figures.performance < audit.budget.performance && `performance < ${audit.budget.performance}`,
      audit.budget.lcpMs !== undefined && !(chosen.figures.lcpMs <= audit.budget.lcpMs) && `LCP > ${audit.budget.lcpMs} ms`,
      audit.budget.requests !== undefined && !(chosen.figures.requests <= audit.budget.requests) && `requests > ${audit.budget.requests}`,
    ].filter(Boolean);
    if (misses.length) failed = true;
    const f = chosen.figures;
    console.log(`${misses.length ? 'MISS' : 'ok  '} ${audit.name.padEnd(16)} perf ${f.performance} (runs ${reports.map((r) => r.figures.performance).join('/')}) a11y ${f.accessibility}`
      + ` bp ${f.bestPractices} FCP ${f.fcpMs} ms LCP ${f.lcpMs} ms TBT ${f.tbtMs} ms SI ${f.speedIndexMs} ms CLS ${f.cls} requests ${f.requests}`
      + ` ${f.transferKiB} KiB load ${chosen.loadAverage}${misses.length ? `  [${misses.join(', ')}]` : ''}`);
    if (f.failing.length) console.log(`     below 0.9: ${f.failing.join(', ')}`);
  }
  writeFileSync(join(out, 'summary.json'), `${JSON.stringify({ date: new Date().toISOString(), runs, cpus: cpus().length, lighthouse: '12.8.2', audits: results }, null, 2)}\n`);
} finally {
  await chrome.stop().catch((error: unknown) => console.error('chromium profile not removed:', error));
  await server.stop(10_000);
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(failed ? 'lighthouse: BUDGET MISSED' : 'lighthouse: within budget');
process.exit(failed ? 1 : 0);
