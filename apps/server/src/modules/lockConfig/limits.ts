/**
 * Lock configuration checked against each lock's device type (contract ratings.ts
 * lockConfigIssues): 400 naming the field and the type's limit, nothing queued.
 */
import { type FieldError, lockConfigIssues, type protocol, type RatingIssue } from '@iot/contract';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { locks } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';
import type { ModelRatings } from '../deviceType/ratings.js';
import { ratingsOfModel } from '../deviceType/ratings.js';

/** The refusal of `issues` (fields under body.config). */
export function configRefusal(issues: RatingIssue[]): ApiError {
  const errors: FieldError[] = issues.map((issue) => ({ field: `body.config.${issue.field}`, message: issue.message }));
  return new ApiError('VALIDATION_FAILED', errors);
}

/** Issues of `config` on a lock with `ratings`. */
export const configIssues = (config: Partial<protocol.LockConfig>, ratings: ModelRatings) => lockConfigIssues(config, ratings.heartbeatRangeS, ratings.model);

/** 400 when the lock's type refuses `config`; a lock not in the data centre is left to the command outbox (404). */
export async function checkLockConfig(tx: Executor, lockId: number, config: Partial<protocol.LockConfig>): Promise<void> {
  const [lock] = await tx.select({ model: locks.model }).from(locks).where(eq(locks.id, lockId));
  if (!lock) return;
  const issues = configIssues(config, await ratingsOfModel(tx, lock.model));
  if (issues.length > 0) throw configRefusal(issues);
}
