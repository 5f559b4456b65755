/**
 * How a row of a table shared by every device kind (alerts, commands, the device registry) names its
 * device: its kind (contract DEVICE_KINDS), then the lock, or the air switch and the circuit. Stated once, so a third
 * kind adds its column and its arm of the check here.
 */
import { sql } from 'drizzle-orm';
import { check, integer, text } from 'drizzle-orm/pg-core';
import { locks } from './schema.js';
import { airSwitches } from './schema-airswitch.js';

/** The columns naming the device, spread into a table after `tenantId`. */
export const deviceReference = () => ({
  /** contract DEVICE_KINDS: lock | airSwitch. */
  deviceKind: text('device_kind').notNull(),
  /** The lock (device_kind lock). */
  lockId: integer('lock_id').references(() => locks.id, { onDelete: 'cascade' }),
  /** The air switch and its circuit, 1-based (device_kind airSwitch). */
  airSwitchId: integer('air_switch_id').references(() => airSwitches.id, { onDelete: 'cascade' }),
  circuit: integer('circuit'),
});

/**
 * The check `name`: the columns of the row's kind are set, the other kinds' are null. `circuit: false`
 * for a table naming whole devices (the device registry), which has no circuit column.
 */
export const oneDevice = (name: string, { circuit = true } = {}) => {
  const lockCircuit = circuit ? ' and circuit is null' : '';
  const switchCircuit = circuit ? ' and circuit is not null' : '';
  return check(name, sql.raw(`(device_kind = 'lock' and lock_id is not null and air_switch_id is null${lockCircuit})
    or (device_kind = 'airSwitch' and air_switch_id is not null${switchCircuit} and lock_id is null)`));
};
