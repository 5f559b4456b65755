/**
 * PUBACK after commit for an mqtt.js (5.16.0, pinned) MQTT 5 client, pipelined and with backpressure.
 *
 * What mqtt.js does (build/lib/handlers/publish.js, QoS 1): it calls `customHandleAcks(topic, payload,
 * packet, cb)`; `cb(0)` emits 'message', runs `handleMessage`, then `client._sendPacket({ cmd: 'puback',
 * messageId }, done)`, and the packet pump (client.js `work`/`nextTickWork`) reads the next packet only
 * when `done` runs. Deferring `cb` until the commit would therefore hold every later packet of the
 * connection for a whole commit (one uplink per group commit, ~50 msg/s).
 *
 * `deferPubacks` wraps `client._sendPacket`: the PUBACK of an uplink registered with `defer()` is
 * written only once its store resolved true, after every earlier one (arrival order, MQTT 5 §4.6);
 * `done` runs at once so the pump reads on, unless `maxStoring` stores are running, in which case it
 * runs when one finishes (TCP backpressure towards the broker, whether or not the broker honours our
 * Receive Maximum). A store resolving false, or a connection closing first, means no PUBACK: the broker
 * redelivers on the resumed session (an MQTT 5 PUBACK with an error reason code would count as
 * delivered). PUBACKs of a closed connection are never written on the next one.
 */
import type { MqttClient } from 'mqtt';

type SendPacket = (packet: { cmd: string; messageId?: number }, cb?: (error?: Error) => void, ...rest: unknown[]) => void;

export interface DeferredPubacks {
  /** Registers the uplink `messageId`, being stored; call in `customHandleAcks` before its callback. `stored` never rejects. */
  defer(messageId: number, stored: Promise<boolean>): void;
  /** Resolves once every PUBACK deferred so far is written or discarded. */
  settled(): Promise<void>;
  /** PUBACKs written / uplinks left unacknowledged (store failed or connection closed first). */
  stats(): { acked: number; unacked: number };
}

/** Installs the wrapper on `client` (call right after mqtt.connect). `maxStoring`: stores running at most. */
export function deferPubacks(client: MqttClient, maxStoring: number): DeferredPubacks {
  const counters = { acked: 0, unacked: 0 };
  const pending = new Map<number, { generation: number; stored: Promise<boolean> }>();
  let generation = 0; // bumped on every close
  let chain: Promise<unknown> = Promise.resolve();
  let storing = 0;
  let paused: (() => void)[] = []; // pump continuations held while `storing` is at the limit

  const internals = client as unknown as { _sendPacket: SendPacket };
  const send = internals._sendPacket.bind(client) as SendPacket;
  internals._sendPacket = (packet, cb, ...rest) => {
    const entry = packet.cmd === 'puback' && packet.messageId !== undefined ? pending.get(packet.messageId) : undefined;
    if (!entry) return send(packet, cb, ...rest);
    pending.delete(packet.messageId as number);
    chain = Promise.all([chain, entry.stored]).then(([, ok]) => {
      if (ok && entry.generation === generation && client.connected) {
        counters.acked++;
        send(packet);
      } else counters.unacked++;
    });
    if (storing < maxStoring) cb?.();
    else if (cb) paused.push(() => cb());
  };

  client.on('close', () => {
    generation++;
    pending.clear();
    const resume = paused; // a dead connection's pump: let it finish, it reads nothing more
    paused = [];
    for (const next of resume) next();
  });

  return {
    defer(messageId, stored) {
      storing++;
      pending.set(messageId, {
        generation,
        stored: stored.finally(() => {
          storing--;
          if (storing < maxStoring) paused.shift()?.();
        }),
      });
    },
    settled: () => chain.then(() => undefined),
    stats: () => ({ ...counters }),
  };
}
