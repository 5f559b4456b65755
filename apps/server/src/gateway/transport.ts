/**
 * The seam between the command outbox and the MQTT transport, so the same dispatcher works with the
 * embedded aedes broker and with an external broker (MQTT_URL).
 */
import type { protocol } from '@iot/contract';

export interface DownlinkTransport {
  /** Publishes `message` to `zg/{imei}/down` with QoS 1; resolves once the broker has taken it. */
  publish(imei: string, message: protocol.DownlinkMessage): Promise<void>;
  /**
   * Reports a device's PUBACK of a downlink (msgId), where the transport can see it (the embedded
   * broker can; through an external broker the platform never sees the device's PUBACK).
   */
  onDelivered(listener: (imei: string, msgId: string) => void): void;
  /** Publishes `message` on a device's downlink `topic` (air switches: `as/{serial}/down`) with QoS 1. */
  publishTo?(topic: string, message: object): Promise<void>;
  /**
   * Reports a device's PUBACK of a downlink (msgId) on its `topic`, where the transport can see it; unlike
   * onDelivered, for every device topic (air switches included).
   */
  onTopicDelivered?(listener: (topic: string, clientId: string, msgId: string) => void): void;
  /** Whether client `clientId` is connected and subscribed to `topic`; undefined when the transport cannot tell. */
  isSubscribed?(clientId: string, topic: string): boolean | undefined;
  /** Whether the device has a live connection now; undefined when the transport cannot tell. */
  isConnected(imei: string): boolean | undefined;
  /**
   * Closes the device's live connection, if this transport holds it (embedded broker); through an
   * external broker the platform holds no device connection, and the broker's own session stays.
   */
  disconnect?(imei: string): void;
}
