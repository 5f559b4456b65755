/**
 * Authority keys, derived from the page tree (pages.ts): a key names a menu entry (spec §2 "Sidebar
 * menu") and is also the permission an API route declares. Keys the spec gives are kept verbatim
 * (including LOOK_RULE, RENEWTOP, USER_MANAGEMENTTOP, SUBSCRIPTIONMANAGEMENT); keys the spec leaves
 * unnamed were given stable names, see docs/authorities.md.
 */
import { type Authority, type PageNode, walkPages } from './pages.js';

export type { Authority } from './pages.js';

const menuKeys: Authority[] = [];
const actions: { key: Authority; page: Authority; title: PageNode['title'] }[] = [];
walkPages((node) => {
  if (node.key) menuKeys.push(node.key as Authority);
  for (const action of node.actions ?? []) actions.push({ key: action.key as Authority, page: node.key as Authority, title: action.title });
});

/**
 * Authority keys that are actions inside a page, not menu entries: the role tree shows each under the
 * menu page it belongs to (`page`). Holding one does not open the page.
 */
export const ACTION_AUTHORITIES: readonly { key: Authority; page: Authority; title: PageNode['title'] }[] = actions;

/** Every authority key: the tree's keys depth first, then the action keys. */
export const AUTHORITIES: readonly Authority[] = [...menuKeys, ...actions.map((action) => action.key)];

/**
 * What an API route requires:
 * - an authority key, or a list of keys of which any one suffices (a call two pages share);
 * - `public`: no token (sign-in, captcha, static config);
 * - `authenticated`: any signed-in account (user info, logout).
 */
export type RouteAccess = Authority | readonly Authority[] | 'public' | 'authenticated';

/** The authority keys that open a route (any one suffices); empty for `public` and `authenticated`. */
export function accessKeys(access: RouteAccess): readonly Authority[] {
  if (access === 'public' || access === 'authenticated') return [];
  return typeof access === 'string' ? [access] : access;
}

/** True when `value` is a known authority key. */
export function isAuthority(value: string): value is Authority {
  return (AUTHORITIES as readonly string[]).includes(value);
}
