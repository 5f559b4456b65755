/**
 * An air switch's commands checked against its device type's ratings (contract ratings.ts):
 * the circuit must exist on the model, and the thresholds as they would be stored (reported, then
 * desired, then the request on top) must be ones the device can hold: 400 naming each failing field
 * with its limit, nothing written.
 */
import { circuitIssue, type FieldError, type protocol, type RatingIssue, thresholdIssues } from '@iot/contract';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { airSwitches, type airSwitchCircuits } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';
import { ratingsOfModel } from '../deviceType/ratings.js';

const refuse = (issues: RatingIssue[], prefix: string) => {
  const errors: FieldError[] = issues.map((issue) => ({ field: `${prefix}${issue.field}`, message: issue.message }));
  return new ApiError('VALIDATION_FAILED', errors);
};

/** The switch's model ratings; 404 when the switch is not in the data centre. */
async function ratingsOfSwitch(tx: Executor, id: number) {
  const [row] = await tx.select({ model: airSwitches.model }).from(airSwitches).where(eq(airSwitches.id, id));
  if (!row) throw new ApiError('NOT_FOUND');
  return ratingsOfModel(tx, row.model);
}

/** 400 on body.circuit when the switch's model has fewer circuits. */
export async function checkCircuit(tx: Executor, id: number, circuit: number): Promise<void> {
  const ratings = await ratingsOfSwitch(tx, id);
  const issue = ratings.electrical ? circuitIssue(circuit, ratings.electrical, ratings.model) : undefined;
  if (issue) throw refuse([issue], 'body.');
}

/** 400 on body.thresholds.<field> when the merged thresholds break the model's ratings or their own order. */
export async function checkThresholds(tx: Executor, id: number, circuit: typeof airSwitchCircuits.$inferSelect, request: protocol.CircuitThresholds): Promise<void> {
  const ratings = await ratingsOfSwitch(tx, id);
  const saved = { ...((circuit.reportedThresholds ?? {}) as protocol.CircuitThresholds), ...((circuit.desiredThresholds ?? {}) as protocol.CircuitThresholds) };
  const merged = { ...saved, ...request };
  const issues = thresholdIssues(merged, ratings.electrical, ratings.model);
  if (issues.length > 0) throw refuse(issues, 'body.thresholds.');
}
