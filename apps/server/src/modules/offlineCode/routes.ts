/**
 * Offline code routes (contract api/offlineCode.ts): issue a code (system-log row in the
 * same tenant transaction) and list the issued ones.
 */
import { offlineCodeEndpoints as E } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { masterKeyFor } from '../../crypto/secret-box.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { issueOfflineCode, listOfflineCodes } from './issue.js';

export async function offlineCodeRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, E.issue, ({ body, inTenant, tenantId, principal }) =>
    inTenant((tx) => issueOfflineCode(tx, { tenantId, username: principal.username, masterKey: masterKeyFor(app.config) }, body)));
  registerEndpoint(app, E.list, ({ query, inTenant, tenantId }) => inTenant((tx) => listOfflineCodes(tx, tenantId, query.lockId), { read: true }));
}
