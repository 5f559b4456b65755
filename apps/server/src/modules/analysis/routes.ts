/**
 * Analysis routes: the KPIs, trends and forecasts of 首页 / 门锁分析 and the big screen, and
 * the big screen's live feed and air-switch panel (today's load and energy). `scope=all` (every data
 * centre, read-only) is refused with 403 FORBIDDEN to anyone but an administrator (account type 0). The tenant's derived-alarm thresholds (LOCK_ALERT_LOG).
 */
import { ACCOUNT_TYPE_ADMIN, DEFAULT_TIME_ZONE, analysisEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/api-error.js';
import { timeZoneOf } from '../tenant/settings.js';
import { registerEndpoint } from '../../http/endpoint.js';
import type { Principal } from '../../http/context.js';
import { loadCurve, todayLoadAndEnergy } from '../airSwitch/analysis.js';
import { analyse, feedOf, readScope } from './queries.js';
import { snapshotPeriods } from './snapshot.js';
import { readThresholds, writeThresholds } from './thresholds.js';

/** The tenant to read, or null for every data centre (administrators only). */
function scopeOf(scope: 'tenant' | 'all', principal: Principal, tenantId: number): number | null {
  if (scope === 'tenant') return tenantId;
  if (principal.type !== ACCOUNT_TYPE_ADMIN) throw new ApiError('FORBIDDEN');
  return null;
}

export async function analysisRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, analysisEndpoints.analysis, ({ query, principal, tenantId }) => {
    const scope = scopeOf(query.scope, principal, tenantId);
    return readScope(app.database, scope, (db) => analyse(db, scope, query.days, app.config.WAKE_WINDOW_MS, snapshotPeriods(app.config.ANALYSIS_SNAPSHOT_MS)));
  });
  registerEndpoint(app, analysisEndpoints.feed, ({ query, principal, tenantId }) => {
    const scope = scopeOf(query.scope, principal, tenantId);
    return readScope(app.database, scope, (db) => feedOf(db, scope, query.after));
  });
  // The big screen's air-switch panel: read through the air-switch module's own queries.
  registerEndpoint(app, analysisEndpoints.airSwitches, async ({ query, principal, tenantId }) => {
    const scope = scopeOf(query.scope, principal, tenantId);
    // Read before the scope's transaction: PGlite has one connection.
    const zone = scope === null ? DEFAULT_TIME_ZONE : await timeZoneOf(app.database.system, tenantId);
    return readScope(app.database, scope, async (db) => ({ ...await todayLoadAndEnergy(db, zone), loadCurve: await loadCurve(db, zone) }));
  });
  registerEndpoint(app, analysisEndpoints.thresholds, ({ inTenant, tenantId }) => inTenant((tx) => readThresholds(tx, tenantId), { read: true }));
  registerEndpoint(app, analysisEndpoints.setThresholds, async ({ body, inTenant, tenantId }) => {
    await inTenant((tx) => writeThresholds(tx, tenantId, body));
    return null;
  });
}
