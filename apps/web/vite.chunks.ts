/**
 * How the console's code is cut into files (the sign-in page made 39 requests over
 * HTTP/1.1 and a list page about 100, most of them files under 2 KiB). Rolldown's `codeSplitting`
 * groups, in order of priority:
 * - `app`: everything the entry imports statically (React, the router, react-query, i18next, the
 *   sign-in page and its words), in one file beside the entry;
 * - `words-<language>`: every namespace of one language but the bundled ones, one file fetched with
 *   the console's first page (i18n.ts asks for a namespace; its whole language comes at once);
 * - `console`: what the console frame needs (app/Console.tsx, app/layout/ConsoleLayout.tsx and all
 *   they import statically: antd's ConfigProvider, Layout, Menu, Tabs, ...) and the small modules
 *   nearly every page uses (API hooks; endpoint descriptors without zod, vite.endpoints.ts), one file;
 * - `lists`: what every list page shares (components/ServerTable.tsx and its imports: Table, Form,
 *   pagination, the date range, ...), one file;
 * - `live`: the live stream's refresh rules (live/invalidate.ts, targets.ts) with the endpoint tables they
 *   name, one file loaded once the stream's first ticket is in (else some twenty small files);
 * - the rest as rolldown cuts it: each page's own code, and pieces shared by some pages. (Merging
 *   those by the set of pages using them, `entriesAware`, made the home page load 140 KiB more.)
 * A group captures the modules its test names and, with them, everything they import (rolldown's
 * `includeDependenciesRecursively`), unless a group of higher priority took it first.
 */
import type { Plugin } from 'vite';

const FRAME = [/[\\/]src[\\/]app[\\/]Console\.tsx$/, /[\\/]src[\\/]app[\\/]layout[\\/]ConsoleLayout\.tsx$/,
  // Small modules nearly every page uses: the API hooks, lock links, spinners. (The web's own api/ folder:
  // `src/api/` alone also matched the contract's packages/contract/src/api/, every endpoint table.)
  /[\\/]web[\\/]src[\\/]api[\\/]/, /[\\/]src[\\/]components[\\/](LockLink|PageSpin)\.tsx$/];
const LISTS = [/[\\/]src[\\/]components[\\/]ServerTable\.tsx$/];
const LIVE_RULES = /[\\/]src[\\/]live[\\/]invalidate\.ts$/;

const LOCALE = /[\\/]src[\\/]locales[\\/](zh-CN|en-US)[\\/][^\\/]+\.json$/;

/** The groups, for `build.rollupOptions.output.codeSplitting.groups`. */
export const CHUNK_GROUPS = [
  { name: 'app', tags: ['$initial' as const], priority: 50 },
  { debugName: 'words', name: (id: string) => { const language = LOCALE.exec(id)?.[1]; return language ? `words-${language}` : null; }, priority: 40 },
  { name: 'console', test: (id: string) => FRAME.some((root) => root.test(id)), priority: 30 },
  { name: 'lists', test: (id: string) => LISTS.some((root) => root.test(id)), priority: 20 },
  { name: 'live', test: LIVE_RULES, priority: 10 },
];

/** Packages the entry chunk must not hold: zod (~178 KB raw) would be downloaded and run on every first load (api/firstLoad.ts). */
const NOT_IN_ENTRY = /[\\/]node_modules[\\/](zod)[\\/]/;

/** The module of `chunk` from a package the entry must not hold (NOT_IN_ENTRY), if `chunk` is an entry and has one. */
export function forbiddenEntryModule(chunk: { isEntry: boolean; modules: Record<string, { renderedLength: number }> }): string | undefined {
  if (!chunk.isEntry) return undefined;
  return Object.entries(chunk.modules).find(([id, module]) => NOT_IN_ENTRY.test(id) && module.renderedLength > 0)?.[0];
}

/** The Vite plugin failing the build when the entry chunk holds a package of NOT_IN_ENTRY, naming the module. */
export function entryWeightPlugin(): Plugin {
  return {
    name: 'iot-entry-weight',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        const module = chunk.type === 'chunk' ? forbiddenEntryModule(chunk) : undefined;
        if (module) this.error(`${module} is in the entry chunk ${chunk.fileName}: see api/firstLoad.ts (import only schema-free contract modules from the entry)`);
      }
    },
  };
}
