/**
 * Wiring of the command outbox into the gateway (gateway/index.ts), the same for the embedded and
 * the external broker: one dispatcher over the gateway's DownlinkTransport, woken by uplink commits.
 */
import { lazySecretBox } from '../../crypto/secret-box.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { commandFollowers } from '../../wiring.js';
import type { GatewayLog } from '../log.js';
import type { DownlinkTransport } from '../transport.js';
import { awakeMsFor, type Dispatcher, type DispatcherTuning, startDispatcher } from './dispatcher.js';

export type { Dispatcher, DispatcherTuning } from './dispatcher.js';

/** Configuration the outbox reads (all optional: defaults of config.ts). */
export type OutboxConfig = Partial<Pick<Config, 'SECRET_KEY' | 'DATA_DIR' | 'COMMAND_RESPONSE_TIMEOUT_MS' | 'COMMAND_SWEEP_MS' | 'WAKE_WINDOW_MS'>>;

/**
 * The late-bound uplink hook: pass `outbox.onCommitted` to createIngest before the transport exists,
 * then `outbox.start(transport)`.
 */
export function createOutbox(options: { database: Database; config: OutboxConfig; log: GatewayLog; tuning?: DispatcherTuning }) {
  let dispatcher: Dispatcher | undefined;
  // Opened lazily: only a command with a secret field needs the key (SECRET_KEY or DATA_DIR/secret.key).
  const box = lazySecretBox(options.config);
  return {
    /** For createIngest's onCommitted: the locks of committed uplinks are awake now. */
    onCommitted(records: readonly { lockId: number }[]): void {
      dispatcher?.wake([...new Set(records.map((record) => record.lockId))]);
    },
    /** Starts the dispatcher over `transport` (a sleeping lock's reachability from config WAKE_WINDOW_MS unless tuned). */
    start(transport: DownlinkTransport): Dispatcher {
      const wakeWindowMs = options.config.WAKE_WINDOW_MS;
      dispatcher = startDispatcher({
        database: options.database, transport, box, log: options.log, followers: commandFollowers,
        responseTimeoutMs: options.config.COMMAND_RESPONSE_TIMEOUT_MS, sweepIntervalMs: options.config.COMMAND_SWEEP_MS,
        awakeMs: wakeWindowMs === undefined ? undefined : awakeMsFor(wakeWindowMs),
        ...options.tuning,
      });
      return dispatcher;
    },
  };
}
