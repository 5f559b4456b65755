/**
 * Authority keys. A key names a menu entry (spec §2 "Sidebar menu") and is also the permission an API
 * route declares. Keys the spec gives are kept verbatim (including LOOK_RULE, RENEWTOP,
 * USER_MANAGEMENTTOP, SUBSCRIPTIONMANAGEMENT); keys the spec leaves unnamed were given stable names here
 * (issue #5), see docs/authorities.md.
 */
export const AUTHORITIES = [
  'HOME_PAGE',
  'LOOK_RULE',
  'LOOK_INFO',
  'LOOK_CONFIG',
  'FIRMWARE_RULE',
  'AIRSWITCH_RULE',
  'VOUCHER_MANAGE',
  'VOUCHER_USER_MANAGE',
  'VOUCHER_PASSWORD_MANAGE',
  'VOUCHER_CARD_MANAGE',
  'VOUCHER_FP_MANAGE',
  'LOG_MANAGEMENT',
  'OPERATE_USER_LOG',
  'OPERATE_PASSWORD_LOG',
  'OPERATE_CARD_LOG',
  'OPERATE_FP_LOG',
  'COMMAND_UP_LOG',
  'COMMAND_DOWN_LOG',
  'HEARTBEAT_LOG',
  'LOCK_ALERT_LOG',
  'LOCK_OPEN_RECORD_LOG',
  'SYSTEM_LOG',
  'RENEWTOP',
  'RENEW',
  'ORDER_MANAGEMENT',
  'USER_MANAGEMENTTOP',
  'LOGIN_ACCOUNT',
  'ROLE_PERMISSIONS',
  'BINDING_ROLES',
  'SUBSCRIPTIONMANAGEMENT',
  /** Action key, not a menu entry (ACTION_AUTHORITIES): see password digits in clear (issue #4). */
  'VOUCHER_PASSWORD_REVEAL',
] as const;

/** One authority key. */
export type Authority = (typeof AUTHORITIES)[number];

/**
 * Authority keys that are actions inside a page, not menu entries: the role tree shows each under the
 * menu page it belongs to (`page`). Holding one does not open the page.
 */
export const ACTION_AUTHORITIES: readonly { key: Authority; page: Authority; title: { 'zh-CN': string; 'en-US': string } }[] = [
  { key: 'VOUCHER_PASSWORD_REVEAL', page: 'VOUCHER_PASSWORD_MANAGE', title: { 'zh-CN': '查看密码明文', 'en-US': 'Reveal passwords' } },
];

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
