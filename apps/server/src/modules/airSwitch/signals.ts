/**
 * In-process signal "a command was queued for air switch N", per database handle (as
 * modules/command/signals.ts for locks): the API raises it after its transaction commits and the air
 * switch dispatcher of the same process sends at once; other instances find the command at their sweep.
 */
import { EventEmitter } from 'node:events';
import type { Database } from '../../db/client.js';

const emitters = new WeakMap<Database, EventEmitter>();

/** Raises the signal for `airSwitchId`. */
export function signalAirSwitchQueued(database: Database, airSwitchId: number): void {
  emitters.get(database)?.emit('queued', airSwitchId);
}

/** Listens to the signal; returns the function that stops listening. */
export function onAirSwitchQueued(database: Database, listener: (airSwitchId: number) => void): () => void {
  let emitter = emitters.get(database);
  if (!emitter) {
    emitter = new EventEmitter();
    emitter.setMaxListeners(100);
    emitters.set(database, emitter);
  }
  emitter.on('queued', listener);
  const current = emitter;
  return () => current.off('queued', listener);
}
