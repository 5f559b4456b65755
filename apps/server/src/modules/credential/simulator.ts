/**
 * DEMO / TEST FACILITY (issue #4): `POST /iot/v1/simulator/attemptOpen` lets the console or a test
 * "type a password on the keypad" of a lock of the simulated fleet running in this process
 * (SIM_LOCKS > 0, attached by demo.ts; tests attach their own fleet). The route is registered only with
 * DEMO=on, and answers 404 when no fleet is attached or the lock is not simulated.
 * The lock decides with what it really holds and reports an openRecord uplink like any attempt.
 */
import type { attemptOpenBody } from '@iot/contract';
import type { AttemptInput, AttemptResult } from '@iot/simulator';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { ApiError, fieldError } from '../../http/api-error.js';

/** What the route needs of a fleet (apps/simulator Fleet.attemptOpen). */
export interface OpenableFleet {
  attemptOpen(imei: string, input: AttemptInput): AttemptResult | undefined;
}

/** By database handle: route plugins run in encapsulated child instances of the app, which share it. */
const fleets = new WeakMap<object, OpenableFleet>();

/** Attaches (or with undefined detaches) the in-process simulated fleet of `app`. */
export function attachSimulator(app: FastifyInstance, fleet: OpenableFleet | undefined): void {
  if (fleet) fleets.set(app.database, fleet);
  else fleets.delete(app.database);
}

/** The attempt's input from the request body; 400 when the method's field is missing. */
function inputOf(body: z.output<typeof attemptOpenBody>): AttemptInput {
  if (body.method === 'password') {
    if (!body.password) throw fieldError('body.password', '请输入密码', 'password is required');
    return { method: 'password', password: body.password };
  }
  if (body.method === 'card') {
    if (!body.cardNumber) throw fieldError('body.cardNumber', '请输入卡号', 'cardNumber is required');
    return { method: 'card', cardNumber: body.cardNumber };
  }
  if (body.fingerprintSlot === undefined) throw fieldError('body.fingerprintSlot', '请指定指纹槽位', 'fingerprintSlot is required');
  return { method: 'fingerprint', fingerprintSlot: body.fingerprintSlot };
}

/** Runs the attempt on the simulated lock `imei` (already found in the tenant); 404 when not simulated. */
export function attemptOnSimulator(app: FastifyInstance, imei: string, body: z.output<typeof attemptOpenBody>): AttemptResult {
  const input = inputOf(body);
  const result = fleets.get(app.database)?.attemptOpen(imei, input);
  if (!result) throw new ApiError('NOT_FOUND');
  return result;
}
