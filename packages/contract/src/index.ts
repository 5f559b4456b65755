/** @iot/contract: the single source of truth shared by server, web and simulator (ARCHITECTURE.md). */
export * from './constants.js';
export * from './authorities.js';
export * from './i18n.js';
export * from './menu.js';
export * from './routes.js';
export * from './api/errors.js';
export * from './api/envelope.js';
export * from './api/endpoint.js';
export * from './api/auth.js';
export * from './api/tenant.js';
export * from './api/lock.js';
export * from './api/account.js';
export * from './api/role.js';
export * from './api/systemLog.js';
export * as protocol from './protocol/index.js';
