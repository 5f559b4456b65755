/**
 * Business constants of the console. Source: console-spec.md §9 unless noted.
 */

/** Interface title (spec §1). */
export const PRODUCT_TITLE = '物联网中台';
/** English product title, for the English toggle. */
export const PRODUCT_TITLE_EN = 'IoT Middle Platform';
/** Breadcrumb title (spec §1). */
export const BREADCRUMB_TITLE = '物联网设备管理平台';
export const BREADCRUMB_TITLE_EN = 'IoT Device Management Platform';
/** Lock vendor constant (spec §1, §9). */
export const LOCK_VENDOR = 'ZIGUANG';

/** The orders a sortable list takes (api/envelope.ts sortFields). Here, without zod: every list page reads them. */
export const SORT_ORDERS = ['ascend', 'descend'] as const;
/** Request timeout of the web client, ms. */
export const REQUEST_TIMEOUT_MS = 100_000;
/** At most this many rows in one log export; a larger result is cut and says so (EXPORT_TRUNCATED_HEADER). */
export const LOG_EXPORT_MAX = 100_000;
/**
 * Response header of a log export: `true` when more rows matched than LOG_EXPORT_MAX (api/deviceLog.ts).
 * These two are declared here, in a module without zod, since the console's download and export code
 * on every page reads them (the web build imports each name from its declaring module).
 */
export const EXPORT_TRUNCATED_HEADER = 'x-export-truncated';
/** Tenant used when none is stored. */
export const DEFAULT_TENANT_ID = 100;
/** The loading overlay closes this long after the last request ends, ms. */
export const LOADING_CLOSE_DEBOUNCE_MS = 300;
/** At most this many tabs in the tab strip; a ninth drops the oldest. */
export const MAX_TABS = 8;
/** The sidebar starts collapsed when the window is narrower than this, px. */
export const SIDEBAR_COLLAPSE_BELOW_PX = 1500;
/** Delay before going to /login after an authentication failure, ms. */
export const AUTH_FAILURE_REDIRECT_MS = 500;
/** Layout scaling: width clamped to [min, max] px and divided by the divisor. */
export const LAYOUT_SCALE = { minWidthPx: 1366, maxWidthPx: 1920, divisor: 24 } as const;

/** Base path of the web app (history mode). */
export const WEB_BASE_PATH = '/api';
/** Header carrying the tenant id on every call. */
export const TENANT_HEADER = 'tenantId';
/** Header carrying the access token on token calls, and a rotated token on responses. */
export const TOKEN_HEADER = 'zw_paas_token';

/** Pagination: default and maximum page size. */
export const PAGE_SIZE_DEFAULT = 10;
export const PAGE_SIZE_MAX = 500;

/** A lock is online when its last heartbeat is younger than this many heartbeat intervals. */
export const ONLINE_HEARTBEAT_FACTOR = 2.5;
/** Heartbeat interval assumed until a lock reports its own, s. */
export const DEFAULT_HEARTBEAT_INTERVAL_S = 30;
/** A battery at or below this is "low battery", %. */
export const LOW_BATTERY_PERCENT = 20;
/**
 * A data centre's time zone until it chooses another (one rule for the whole product): every
 * page, the big screen, exports and the analysis' days use the data centre's zone (tenants.time_zone);
 * the analysis across every data centre (the big screen's "all" view) counts calendar days in this one.
 */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';
/** A lock whose service ends within this many days counts as "service expiring". */
export const SERVICE_EXPIRING_DAYS = 30;
/** Battery forecasts look this many days ahead ("runs flat within 30 days"). */
export const BATTERY_FORECAST_DAYS = 30;
/** Derived-alarm thresholds of a tenant without its own (docs/protocol.md "Derived alarms"). */
export const ANALYSIS_THRESHOLD_DEFAULTS = {
  /** Door open with no unlock or key record within this many s before: forcedEntry. */
  forcedEntryS: 30,
  /** This many failed attempts on one lock within the window: bruteForce. */
  bruteForceAttempts: 5,
  /** One credential slot failing on this many locks within the window: bruteForce. */
  bruteForceLocks: 3,
  bruteForceWindowS: 300,
  /** No uplink for this many heartbeat intervals: silentLock. */
  silentIntervals: 3,
  /** Battery trend predicts 0 % within this many days: batteryCliff. */
  batteryCliffDays: 7,
} as const;

/**
 * Locks that need attention (门锁信息's attention filters, 门锁概况's counts). The one place
 * their thresholds live; a low battery is LOW_BATTERY_PERCENT above.
 */
export const ATTENTION_THRESHOLDS = {
  /** RSSI strictly below this is a weak signal, dBm. */
  weakRssiDbm: -105,
  /** Offline longer than this many of the lock's heartbeat intervals (never seen: counted from registration). */
  offlineIntervals: 3,
  /** Failed commands (FAILED, TIMEOUT, EXPIRED) completed within this many hours. */
  failedCommandsHours: 24,
} as const;

/** Account types: 0 is administrator (spec §6). */
export const ACCOUNT_TYPE_ADMIN = 0;
export const ACCOUNT_TYPE_OPERATOR = 1;

/** Login accounts: username and password lengths. */
export const USERNAME_MAX = 64;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 64;
/** At most this many rows in one system-log CSV export (the newest first). */
export const AUDIT_LOG_EXPORT_MAX = 10_000;

/**
 * The kinds of device the platform serves (a device type's `kind`). One list for the device types,
 * the command events, the alarm log and the gateway's kind table (apps/server gateway/device-kinds.ts
 * has one entry for each).
 */
export const DEVICE_KINDS = ['lock', 'airSwitch'] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];
