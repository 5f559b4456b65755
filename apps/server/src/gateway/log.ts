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
