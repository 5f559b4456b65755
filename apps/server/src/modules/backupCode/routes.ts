/**
 * Backup-code routes (contract api/stayBackupCode.ts, spread into stayEndpoints): issue a
 * backup code to a stay (its system-log row in the same tenant transaction; the body names the stay and
 * lock, never the code), a stay's codes and a lock's pool.
 */
import { stayEndpoints as E } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { lazySecretBox } from '../../crypto/secret-box.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { poolState } from './pool.js';
import { issueBackupCodes, stayBackupCodes } from './issue.js';

export async function backupCodeRoutes(app: FastifyInstance): Promise<void> {
  const box = lazySecretBox(app.config);
  registerEndpoint(app, E.backupCode, ({ body, inTenant, tenantId, principal }) =>
    inTenant((tx) => issueBackupCodes(tx, { tenantId, username: principal.username, box }, body)));
  registerEndpoint(app, E.backupCodes, ({ query, inTenant }) => inTenant((tx) => stayBackupCodes(tx, query.stayId), { read: true }));
  registerEndpoint(app, E.backupCodePool, ({ query, inTenant }) => inTenant((tx) => poolState(tx, query.lockId), { read: true }));
}
