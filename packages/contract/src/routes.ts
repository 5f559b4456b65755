/**
 * The route table of the console (spec §2 "Screens and routes"), derived from the page tree (pages.ts):
 * path, title in both languages and the authority a page needs. Pages outside the menu borrow the key
 * of the menu entry they sit under. The web registers its router from this table; page titles render
 * as `<title> | 物联网中台`.
 */
import type { Authority } from './authorities.js';
import type { LocalizedText } from './i18n.js';
import { type PagePath, walkPages } from './pages.js';

export interface RouteEntry<P extends string = string> {
  /** Path under the web base (/api), with a leading slash. */
  path: P;
  title: LocalizedText;
  /** Authority needed to open the page; undefined for /login. */
  authority?: Authority;
  /** `layout`: inside /home with header, sidebar and tabs; `bare`: full screen. */
  frame: 'layout' | 'bare';
}

export const LOGIN_ROUTE: RouteEntry<'/login'> = { path: '/login', title: { 'zh-CN': '登录', 'en-US': 'Sign in' }, frame: 'bare' };

const routes: RouteEntry<PagePath>[] = [];
walkPages((node, inherited) => {
  if (node.group) return;
  routes.push({ path: `/${node.index}` as PagePath, title: node.pageTitle ?? node.title, authority: inherited as Authority, frame: node.frame === 'bare' ? 'bare' : 'layout' });
});

/** Every screen but /login, in the page tree's order (depth first). */
export const ROUTES: readonly RouteEntry<PagePath>[] = routes;

/** The route entry of a path, or undefined. */
export function findRoute(path: string): RouteEntry | undefined {
  return path === LOGIN_ROUTE.path ? LOGIN_ROUTE : ROUTES.find((route) => route.path === path);
}

/** Document title of a page: `<title> | <product title>` (spec §1). */
export function documentTitle(pageTitle: string, productTitle: string): string {
  return `${pageTitle} | ${productTitle}`;
}
