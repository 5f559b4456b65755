/**
 * Notification sources of the event bus (bus.ts):
 * - PostgreSQL: one dedicated connection per database handle LISTENs on EVENT_CHANNEL (a pooled
 *   connection cannot: LISTEN belongs to a session). When it drops, it reconnects with a growing
 *   delay (1 s doubling to 30 s) and then reports a resync: notifications sent meanwhile are lost,
 *   so subscribers catch up by reading the rows.
 * - PGlite: its in-process listen(); the one connection delivers a notification as its transaction
 *   commits, on the same event loop turn.
 */
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type BusLog, EVENT_CHANNEL, type NotificationSource } from './bus.js';

const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;

/** Listens on a dedicated connection to `connectionString`. */
export function postgresSource(connectionString: string, log: BusLog): NotificationSource {
  let client: pg.Client | undefined;
  let closed = false;
  let retryMs = RETRY_FIRST_MS;
  let timer: NodeJS.Timeout | undefined;

  async function connect(onPayload: (payload: string) => void): Promise<pg.Client> {
    const connection = new pg.Client({ connectionString, keepAlive: true, application_name: 'iot-events' });
    connection.on('notification', (message) => {
      if (message.channel === EVENT_CHANNEL && message.payload) onPayload(message.payload);
    });
    try {
      await connection.connect();
      await connection.query(`listen ${EVENT_CHANNEL}`);
    } catch (error) {
      connection.end().catch(() => undefined);
      throw error;
    }
    return connection;
  }

  function watch(connection: pg.Client, onPayload: (payload: string) => void, onResync: () => void): void {
    const lost = (error?: Error) => {
      if (client !== connection || closed) return;
      client = undefined;
      log.warn({ err: error }, 'event listener connection lost; reconnecting');
      connection.end().catch(() => undefined);
      reconnect(onPayload, onResync);
    };
    connection.on('error', lost);
    connection.on('end', () => lost());
  }

  function reconnect(onPayload: (payload: string) => void, onResync: () => void): void {
    timer = setTimeout(() => {
      connect(onPayload).then((connection) => {
        if (closed) {
          connection.end().catch(() => undefined);
          return;
        }
        client = connection;
        retryMs = RETRY_FIRST_MS;
        watch(connection, onPayload, onResync);
        onResync();
      }, (error: unknown) => {
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
        if (!closed) {
          log.warn({ err: error, retryMs }, 'event listener cannot reconnect yet');
          reconnect(onPayload, onResync);
        }
      });
    }, retryMs);
    timer.unref();
  }

  return {
    async start(onPayload, onResync) {
      const connection = await connect(onPayload);
      if (closed) {
        await connection.end();
        return;
      }
      client = connection;
      watch(connection, onPayload, onResync);
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      const connection = client;
      client = undefined;
      await connection?.end().catch(() => undefined);
    },
  };
}

/** Listens with PGlite's own listen() on `client`. */
export function pgliteSource(client: PGlite): NotificationSource {
  let stop: (() => Promise<void>) | undefined;
  return {
    async start(onPayload) {
      stop = await client.listen(EVENT_CHANNEL, onPayload);
    },
    async close() {
      if (!client.closed) await stop?.().catch(() => undefined);
    },
  };
}
