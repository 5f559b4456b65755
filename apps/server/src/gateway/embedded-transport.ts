/**
 * DownlinkTransport over the embedded aedes 1.2 broker (transport.ts).
 *
 * publish: `broker.publish` with QoS 1 on `zg/{imei}/down`. aedes stores a QoS 1 packet for every
 * subscription of a persistent session (clean=false) first (enqueueOffline ->
 * persistence.outgoingEnqueueCombi), then forwards it to a connected subscriber
 * (authorizeForward allows only the device's own topic). A lock that has just gone to sleep therefore
 * still gets the command when it reconnects; the callback fires once the broker has taken the packet.
 *
 * onDelivered: aedes emits `ack` (lib/handlers/puback.js) with the original stored packet (topic and
 * payload) when a client PUBACKs a QoS 1 delivery; the payload's msgId is the command's msgId. Only
 * acks of a client's own downlink topic count.
 *
 * disconnect: closes the client of that id (aedes `client.close()`), so it must authenticate again.
 *
 * isConnected: the client is connected and subscribed to its own downlink topic (aedes keeps the
 * client's subscriptions, restored ones of a persistent session included, in `client.subscriptions`).
 */
import { protocol } from '@iot/contract';
import type { Aedes, Client } from 'aedes';
import { parseDeviceTopic } from './device-kinds.js';
import type { DownlinkTransport } from './transport.js';

/** Creates the transport; listeners stay attached for the broker's lifetime. */
export function createEmbeddedTransport(broker: Aedes): DownlinkTransport {
  const listeners: ((imei: string, msgId: string) => void)[] = [];
  const topicListeners: ((topic: string, clientId: string, msgId: string) => void)[] = [];
  broker.on('ack', (packet, client: Client | undefined) => {
    if (packet?.cmd !== 'publish' || !client) return;
    const topic = parseDeviceTopic(packet.topic);
    if (topic?.direction !== 'down' || topic.id !== client.id) return; // only acks of a client's own downlink topic
    let msgId: unknown;
    try {
      msgId = JSON.parse(Buffer.from(packet.payload as Buffer | string).toString('utf8')).msgId;
    } catch {
      return;
    }
    if (typeof msgId !== 'string') return;
    if (topic.kind.kind === 'lock') for (const listener of listeners) listener(topic.id, msgId);
    for (const listener of topicListeners) listener(packet.topic, client.id, msgId);
  });
  type Connected = { connected?: boolean; subscriptions?: Record<string, unknown>; close?(): void };
  const clients = () => (broker as unknown as { clients: Record<string, Connected | undefined> }).clients;

  const publishTo = (topic: string, message: object) => {
    const payload = Buffer.from(JSON.stringify(message));
    return new Promise<void>((resolve, reject) => {
      broker.publish({ cmd: 'publish', topic, payload, qos: 1, retain: false, dup: false }, (error) => (error ? reject(error) : resolve()));
    });
  };

  return {
    publish: (imei, message) => publishTo(protocol.downlinkTopic(imei), message),
    publishTo,
    onDelivered(listener) {
      listeners.push(listener);
    },
    onTopicDelivered(listener) {
      topicListeners.push(listener);
    },
    isSubscribed(clientId, topic) {
      const client = clients()[clientId];
      return Boolean(client?.connected && client.subscriptions?.[topic]);
    },
    /** Connected and subscribed to its downlink topic (right after CONNECT it cannot receive yet). */
    isConnected(imei) {
      const client = clients()[imei];
      return Boolean(client?.connected && client.subscriptions?.[protocol.downlinkTopic(imei)]);
    },
    /** Closes the client's socket (a reset secret or a disabled lock): its next CONNECT is authenticated anew. */
    disconnect(imei) {
      clients()[imei]?.close?.();
    },
  };
}
