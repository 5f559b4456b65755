/**
 * Web load benchmark: builds the console for production (apps/web/vite.config.ts, with its
 * Brotli/gzip copies), starts the real server on it, and loads it in Debian Chromium as a first-time
 * visitor (empty cache), summing the JS bytes transferred (compressed bodies, as the browser received
 * them). Budgets: the sign-in route <= 250 KiB; the shell with the home page (ECharts included) <= 450
 * KiB; every other page's own chunk <= 60 KiB (Brotli). Also prints the uncompressed sizes (the
 * baseline: ratio = transferred / raw) and the largest modules by rendered size. Exits 1 on a miss.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { TOKEN_HEADER } from '@iot/contract';
import { chromium, type Page } from 'playwright-core';
import { build, type Plugin } from 'vite';
import { freePort, startServer } from '../apps/server/integration/server-process.js';

const KiB = 1024;
const BUDGET = { signIn: 250 * KiB, shellHome: 450 * KiB, pageChunk: 60 * KiB };
const root = join(import.meta.dirname, '..');
const web = join(root, 'apps/web');
const dist = join(web, 'dist');
const kib = (bytes: number) => `${(bytes / KiB).toFixed(1)} KiB`;
let failed = false;
const judge = (label: string, bytes: number, budget: number, raw?: number) => {
  const ok = bytes <= budget;
  if (!ok) failed = true;
  console.log(`${ok ? 'ok  ' : 'MISS'} ${label.padEnd(34)} ${kib(bytes).padStart(11)} (budget ${kib(budget)})${raw ? `, raw ${kib(raw)}, ratio ${(bytes / raw).toFixed(2)}x` : ''}`);
};

// 1. Production build, recording each chunk's modules and each page's own chunk.
const moduleSizes = new Map<string, number>();
const pageChunks = new Map<string, string>();
const recorder: Plugin = {
  name: 'bench-recorder',
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      for (const [id, info] of Object.entries(chunk.modules)) {
        const name = id.includes('node_modules/') ? (id.split('node_modules/').pop() ?? id).split('/').slice(0, id.includes('node_modules/@') ? 2 : 1).join('/') : relative(root, id);
        moduleSizes.set(name, (moduleSizes.get(name) ?? 0) + info.renderedLength);
      }
      const facade = chunk.facadeModuleId ?? '';
      if (chunk.isDynamicEntry && facade.includes('/src/pages/')) pageChunks.set(relative(join(web, 'src/pages'), facade), chunk.fileName);
    }
  },
};
await build({ root: web, configFile: join(web, 'vite.config.ts'), logLevel: 'warn', plugins: [recorder] });

// 2. The real server on that build.
const dataDir = mkdtempSync(join(tmpdir(), 'bench-web-'));
const port = await freePort();
const password = 'bench-admin-password';
const server = await startServer({ PORT: String(port), DATA_DIR: dataDir, MQTT_PORT: '0', SIM_LOCKS: '3', SIM_OUTAGES: 'off',
    ADMIN_PASSWORD: password, LOG_LEVEL: 'warn' }, 120_000);
const base = `http://127.0.0.1:${port}/api`;

// 3. Chromium as a first-time visitor: JS bytes on the wire per step.
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
/** Counts JS responses of a page: transferred (encoded body) and raw bytes, per file. */
function watchJs(page: Page) {
  const files = new Map<string, { wire: number; raw: number }>();
  const pending: Promise<void>[] = [];
  let counting = true;
  page.on('response', (response) => {
    if (!counting || !response.url().endsWith('.js')) return;
    pending.push((async () => {
      const sizes = await response.request().sizes();
      files.set(response.url(), { wire: sizes.responseBodySize, raw: (await response.body()).length });
    })());
  });
  const total = async () => {
    counting = false;
    await Promise.all(pending);
    if (process.env.BENCH_WEB_FILES) for (const [name, file] of [...files].sort((a, b) => b[1].wire - a[1].wire)) console.log(`     ${kib(file.wire).padStart(10)}  ${name.split('/').pop()}`);
    return [...files.values()].reduce((sum, file) => ({ wire: sum.wire + file.wire, raw: sum.raw + file.raw }), { wire: 0, raw: 0 });
  };
  return { files, total };
}
try {
  console.log(`web: production build, ${pageChunks.size} page chunks; server on ${base}`);
  const signInContext = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const signIn = await signInContext.newPage();
  const signInJs = watchJs(signIn);
  await signIn.goto(`${base}/login`, { waitUntil: 'networkidle' });
  await signIn.waitForSelector('#username');
  const signInTotal = await signInJs.total();
  judge(`sign-in route (${signInJs.files.size} files)`, signInTotal.wire, BUDGET.signIn, signInTotal.raw);
  await signIn.fill('#username', 'admin');
  await signIn.fill('#password', password);
  await signIn.click('button[type=submit]');
  await signIn.waitForURL(/\/homepage$/, { timeout: 30_000 });
  const storage = await signInContext.storageState();
  await signInContext.close();

  // A returning operator with an empty cache opening the home page.
  const homeContext = await browser.newContext({ viewport: { width: 1366, height: 768 }, storageState: storage });
  const home = await homeContext.newPage();
  const homeJs = watchJs(home);
  await home.goto(`${base}/homepage`, { waitUntil: 'networkidle' });
  await home.waitForSelector('canvas', { timeout: 30_000 });
  const homeTotal = await homeJs.total();
  judge(`shell + home page (${homeJs.files.size} files)`, homeTotal.wire, BUDGET.shellHome, homeTotal.raw);
  if (!storage.origins.some((origin) => origin.localStorage.some((item) => item.name === 'token'))) console.warn(`no token stored (${TOKEN_HEADER})`);
  await homeContext.close();

  // 4. Every other page's own chunk (Brotli file the server sends).
  for (const [page, file] of [...pageChunks].sort()) {
    if (page.startsWith('homepage/') || page.startsWith('login/')) continue;
    const raw = readFileSync(join(dist, file)).length;
    const wire = existsSync(join(dist, `${file}.br`)) ? readFileSync(join(dist, `${file}.br`)).length : raw; // under 1 KiB: sent raw
    judge(`page ${page.replace(/\.tsx$/, '')}`, wire, BUDGET.pageChunk, raw);
  }
  console.log('\nlargest modules (rendered, before compression):');
  for (const [name, size] of [...moduleSizes].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${kib(size).padStart(10)}  ${name}`);
} finally {
  await browser.close();
  await server.stop(5_000);
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(failed ? 'web: BUDGET MISSED' : 'web: within budget');
process.exit(failed ? 1 : 0);
