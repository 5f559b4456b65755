/**
 * The logger the gateway needs: a subset of pino's API, so fastify's `app.log` or `pino()` fit.
 * Always called as `log.level({ ...fields }, 'message')`.
 */
export interface GatewayLog {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
  debug?(fields: object, message?: string): void;
}

/** A logger that discards everything (tests, tools). */
export const silentLog: GatewayLog = { info() {}, warn() {}, error() {}, debug() {} };

/** A warn() that logs at most `limit` times per `windowMs`, then one line counting what it skipped. */
export function throttled(log: GatewayLog, limit: number, windowMs: number) {
  let windowStart = 0;
  let count = 0;
  let suppressed = 0;
  return (fields: object, message: string) => {
    const now = Date.now();
    if (now - windowStart > windowMs) {
      if (suppressed > 0) log.warn({ suppressed }, 'further uplink drops not logged in the last window');
      windowStart = now;
      count = 0;
      suppressed = 0;
    }
    if (++count <= limit) log.warn(fields, message);
    else suppressed++;
  };
}
