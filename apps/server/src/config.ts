/**
 * Server configuration from the environment (README "Configuration"). Every value has a default that
 * makes `npm start` work with nothing set.
 */
import { resolve } from 'node:path';
import { isTimeZone, protocol } from '@iot/contract';
import { z } from 'zod';
import { wechatPayEnv } from './modules/billing/wechatPay/settings.js';
import { oidcSettings } from './modules/sso/settings.js';

const flag = z.enum(['on', 'off', 'true', 'false', '1', '0']).transform((v) => v === 'on' || v === 'true' || v === '1');
/** `imei:seconds` pairs separated by commas -> { imei: seconds }. */
const secondsByImei = z.string().regex(/^\d{15}:\d+(,\d{15}:\d+)*$/, 'expected imei:seconds pairs separated by commas')
  .transform((text) => Object.fromEntries(text.split(',').map((pair) => { const [imei, s] = pair.split(':'); return [imei as string, Number(s)]; })))
  .pipe(z.record(z.string(), z.number().int().min(1).max(86_400)));

/**
 * The default safety sweep of the background workers, ms (5 min; the issue asks for no more often
 * than 30 s). A worker learns of its work from events (in-process, or NOTIFY from other instances,
 * with a resync after a listener reconnects) and of its due times from its own queries, so the sweep
 * catches only what a mistake let slip. Every sweep costs each worker a few queries (on PGlite about
 * 10 ms each): at 30 s they were three quarters of an idle server's CPU (bench/idle.ts, bench/RESULTS.md).
 */
export const SAFETY_SWEEP_MS = 300_000;

const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  /** postgres://... switches from PGlite to PostgreSQL. */
  DATABASE_URL: z.string().optional(),
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1883),
  /** mqtt://... switches from the embedded broker to an external one. */
  MQTT_URL: z.string().optional(),
  /** Client id (persistent session) of this instance at the external broker; default platform-<hostname>-<PORT>. Keep it stable per instance. */
  MQTT_CLIENT_ID: z.string().min(1).max(128).optional(),
  /**
   * on: demo data centres and accounts, the simulated fleet and demo-only routes (simulated keypad);
   * off: none of it. Default: on with the embedded database, off when DATABASE_URL is set.
   */
  DEMO: flag.optional(),
  /** DEMO=off: user name of the first administrator, created at first start when ADMIN_PASSWORD is set. */
  ADMIN_USERNAME: z.string().regex(/^[A-Za-z0-9_.-]{3,32}$/, 'expected 3-32 letters, digits, _ . -').default('admin'),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  OPERATOR_PASSWORD: z.string().min(8).optional(),
  AUTH_CAPTCHA: flag.default(true),
  /** Number of simulated locks started with the server (0: none). */
  SIM_LOCKS: z.coerce.number().int().min(0).max(100_000).default(50),
  /**
   * Simulated always-online 4G Cat.1 locks (ZG-4G300) started beside SIM_LOCKS (the locks a
   * remote unlock reaches; they never sleep); none when SIM_LOCKS is 0.
   */
  SIM_ONLINE_LOCKS: z.coerce.number().int().min(0).max(10_000).default(4),
  /**
   * Heartbeat interval of simulated locks, s (default 60; real NB-IoT locks beat every few minutes
   * to hours). At 30 s the default demo's 50 locks, their unlocks and pushes cost 8.6-10.9 % of a
   * core; at 60 s with the air switches at 30 s, under 5 % (the idle budget of bench/idle.ts).
   */
  SIM_HEARTBEAT_S: z.coerce.number().int().min(1).max(86_400).default(60),
  /** Heartbeat interval of chosen simulated locks, s, as `imei:s,imei:s` (e.g. one lock that truly sleeps); others: SIM_HEARTBEAT_S. */
  SIM_HEARTBEAT_S_BY_IMEI: secondsByImei.default({}),
  /** Simulated locks now and then drop off the network and come back (demo realism); `off` for tests. */
  SIM_OUTAGES: flag.default(true),
  /** Unlocks, door movements and alarms of simulated locks: off, normal (demo) or high (busy logs). */
  SIM_ACTIVITY: z.enum(['off', 'normal', 'high']).default('normal'),
  /** Simulated air switches per demo data centre (office, shop and residence load profiles in turn), DEMO=on; 0 for none. */
  SIM_AIR_SWITCHES: z.coerce.number().int().min(0).max(10_000).default(3),
  /** Telemetry interval of simulated air switches, s (default 30: see SIM_HEARTBEAT_S; real breakers report every 1-15 min). */
  SIM_AIR_SWITCH_INTERVAL_S: z.coerce.number().int().min(1).max(86_400).default(30),
  /** Heartbeats older than this are deleted by a periodic job, d. */
  HEARTBEAT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(90),
  /** Raw air switch uplinks (telemetry) older than this are deleted; hourly and daily rollups are kept for good. */
  TELEMETRY_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(30),
  /** The lock uplink log (上报日志: events, alarms, command results) older than this is deleted, d. */
  UPLINK_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(180),
  /** Unlock records (开锁日志) older than this are deleted, d. */
  UNLOCK_RECORD_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
  /**
   * The system log (系统日志: operators' actions, sign-ins) older than this is deleted, d. At least 180: the
   * PRC Cybersecurity Law (Art. 21) asks network logs to be kept for no less than six months.
   */
  SYSTEM_LOG_RETENTION_DAYS: z.coerce.number().int().min(180, 'at least 180 days (six months of network logs, PRC Cybersecurity Law Art. 21)').max(36_500).default(365),
  /** Sign-in history rows older than this are deleted by the heartbeat retention job's run, d (also at most 1,000 per account). */
  SIGN_IN_HISTORY_DAYS: z.coerce.number().int().min(1).max(36_500).default(90),
  /** IANA zone of the air switches' daily energy rollup (the days most operators ask for); other zones are summed from hourly rows. */
  TELEMETRY_TIME_ZONE: z.string().refine(isTimeZone, 'unknown time zone').default('Asia/Shanghai'),
  /** A token unused this long expires, s. */
  TOKEN_IDLE_S: z.coerce.number().int().min(1).default(30 * 60),
  /** A sign-in lasts at most this long, s. */
  TOKEN_ABSOLUTE_S: z.coerce.number().int().min(1).default(12 * 3600),
  /**
   * How long a verified token is answered from the process's memory without the database, ms (issue
   * #23): revocations and role changes reach it at once through events; this is the safety net for a
   * lost notification. 0: every request reads the database.
   */
  PRINCIPAL_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /** Requests per minute of one API key (429 with Retry-After and RateLimit headers beyond it). */
  API_KEY_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /** Requests per minute of all API keys of one account together. */
  API_KEY_ACCOUNT_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(1200),
  /** Per-data-centre API key limits as `tenantId:perKey:perAccount` separated by commas, e.g. `200:60:120`; others: the two above. */
  API_KEY_RATE_BY_TENANT: z.string().regex(/^(\d{1,9}:\d{1,7}:\d{1,7}(,\d{1,9}:\d{1,7}:\d{1,7})*)?$/, 'expected tenantId:perKey:perAccount separated by commas').default('')
    .transform((text) => Object.fromEntries(text.split(',').filter(Boolean).map((part) => {
      const [tenantId, perKey, perAccount] = part.split(':').map(Number) as [number, number, number];
      return [tenantId, { perKey, perAccount }];
    })) as Record<number, { perKey: number; perAccount: number }>),
  /** A token older than this is replaced by a fresh one on its next use (zw_paas_token response header), s. */
  TOKEN_ROTATE_S: z.coerce.number().int().min(1).default(10 * 60),
  /**
   * Failed sign-ins of one username within 15 minutes before it needs a captcha and waits a growing
   * delay, and before that username is refused from the same address (never from others).
   */
  SIGN_IN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  /** Failed sign-ins from one address (any usernames) within 15 minutes before that address is refused. */
  SIGN_IN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  /** Folder of the built web app. */
  WEB_DIST: z.string().default(resolve(import.meta.dirname, '../../web/dist')),
  /**
   * Key encrypting secret command fields (password digits), AES-256-GCM: 64 hex digits or base64 of
   * 32 bytes. Unset: a key file `secret.key` is created in DATA_DIR at first start. Several server
   * instances on one database must share the same key.
   */
  SECRET_KEY: z.string().optional(),
  /** A SENT/DELIVERED command without a commandResult this long is retried (or TIMEOUT), ms. */
  COMMAND_RESPONSE_TIMEOUT_MS: z.coerce.number().int().min(100).max(86_400_000).default(30_000),
  /**
   * Wake window of a sleeping (NB-IoT) lock after each uplink, ms: the dispatcher sends it commands
   * only within it (less a safety margin, gateway/outbox/dispatcher.ts) and the simulated locks stay
   * connected this long before sleeping.
   */
  WAKE_WINDOW_MS: z.coerce.number().int().min(500).max(3_600_000).default(protocol.WAKE_WINDOW_MS),
  /**
   * Period of the analysis snapshot's current part (fleet counts, attention, distributions, buildings),
   * ms; its top-10 lists every 12 periods. The analysis job runs at most this often and only while
   * data changes (modules/analysis/job.ts); the analysis answers from a snapshot while it is younger
   * than 3 periods (modules/analysis/snapshot.ts), else computes the part itself.
   */
  ANALYSIS_SNAPSHOT_MS: z.coerce.number().int().min(1000).max(600_000).default(5000),
  /**
   * Safety sweep of the command dispatchers and the firmware transfer, ms: they wake on events and at
   * the earliest due time they know (a response timeout, an expiry), and besides sweep this often to
   * catch what a lost notification did not announce (docs/events.md). Default 5 min
   * (SAFETY_SWEEP_MS): within one process no event is lost, and a PostgreSQL listener that reconnects
   * resyncs every worker at once, so this sweep only guards against mistakes; at 30 s it was most of
   * an idle server's CPU (bench/idle.ts).
   */
  COMMAND_SWEEP_MS: z.coerce.number().int().min(50).max(600_000).default(SAFETY_SWEEP_MS),
  /**
   * Proxies whose X-Forwarded-For / -Proto / -Host are believed (client address in rate limits and the
   * system log, HTTPS for HSTS): `off` (default: the socket's peer is the client), or addresses / CIDRs
   * separated by commas, e.g. `127.0.0.1,10.0.0.0/8`, or proxy-addr's names `loopback`, `uniquelocal`.
   */
  TRUST_PROXY: z.string().trim().default('off')
    .transform((value) => (['off', 'false', '0', ''].includes(value) ? false : value.split(',').map((part) => part.trim()).filter(Boolean))),
  /** Origins (scheme://host[:port]) allowed to call the API from another site, comma-separated; none by default. */
  CORS_ORIGINS: z.string().default('').transform((value) => value.split(',').map((part) => part.trim()).filter(Boolean)),
  /**
   * Open platform: networks pushes may reach besides public addresses, comma-separated:
   * ipaddr.js range names (`loopback`, `private`, `linkLocal`, `uniqueLocal`) or CIDRs. Default:
   * `loopback` with DEMO=on (the demo receiver), none otherwise.
   */
  PUSH_ALLOWED_NETWORKS: z.string().optional(),
  /** A push failing this long after its event is a dead letter, s. */
  PUSH_RETRY_WINDOW_S: z.coerce.number().int().min(1).max(30 * 86_400).default(86_400),
  /** An endpoint failing this long is paused until resumed in the console, s. */
  PUSH_PAUSE_AFTER_S: z.coerce.number().int().min(1).max(30 * 86_400).default(86_400),
  /**
   * Safety sweep of the push delivery worker, ms: it wakes when deliveries are queued and at the
   * earliest retry or lease it knows, and besides looks this often (docs/events.md;
   * default 5 min, SAFETY_SWEEP_MS, as COMMAND_SWEEP_MS).
   */
  PUSH_POLL_MS: z.coerce.number().int().min(10).max(600_000).default(SAFETY_SWEEP_MS),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Graceful shutdown deadline: after SIGTERM/SIGINT, in-flight work gets this long before a forced exit, ms. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** Load shedding: requests get 503 while the event loop lags more than this, ms (0 disables). */
  MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /**
   * Vendor public keys firmware packages must be signed with: `keyId:base64,keyId:base64`,
   * each the base64 of an Ed25519 SubjectPublicKeyInfo (DER). Several keys while one is being rotated out;
   * DEMO=on adds the demo key. Private keys are refused (modules/firmware/vendor-keys.ts).
   */
  FIRMWARE_VENDOR_KEYS: z.string().optional(),
  ...wechatPayEnv, // WeChat Pay (modules/billing/wechatPay/settings.ts)
  ...oidcSettings, // single sign-on (modules/sso/settings.ts)
});

export type Config = Omit<z.infer<typeof configSchema>, 'DEMO'> & { DEMO: boolean };

/**
 * Reads the configuration; an empty variable counts as unset. Throws a readable error naming the bad
 * variables.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Config {
  const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = configSchema.safeParse(set);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${fields}`);
  }
  return { ...parsed.data, DEMO: parsed.data.DEMO ?? !parsed.data.DATABASE_URL, ...overrides };
}
