/**
 * In-process signal "a command was queued for lock N", per database handle: the API raises it after
 * its transaction commits and the dispatcher of the same process (if any) dispatches at once instead
 * of at its next sweep (≤ COMMAND_SWEEP_MS later). Other instances find the command at their sweep.
 */
import { EventEmitter } from 'node:events';
import type { Database } from '../../db/client.js';

const emitters = new WeakMap<Database, EventEmitter>();

function emitterOf(database: Database): EventEmitter {
  let emitter = emitters.get(database);
  if (!emitter) {
    emitter = new EventEmitter();
    emitter.setMaxListeners(100);
    emitters.set(database, emitter);
  }
  return emitter;
}

/** Raises the signal for `lockId`. */
export function signalQueued(database: Database, lockId: number): void {
  emitters.get(database)?.emit('queued', lockId);
}

/** Listens to the signal; returns the function that stops listening. */
export function onQueued(database: Database, listener: (lockId: number) => void): () => void {
  const emitter = emitterOf(database);
  emitter.on('queued', listener);
  return () => emitter.off('queued', listener);
}
