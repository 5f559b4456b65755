/**
 * The event uplinks of one simulated lock (runner.ts): published QoS 1 in seq order when its MQTT
 * connection is up, else kept until the next connect (an open attempt at a sleeping or offline lock).
 */
import { protocol } from '@iot/contract';
import type { MqttClient } from 'mqtt';
import type { EventMessage } from './lock.js';

export class UplinkQueue {
  /** Event uplinks (openRecord, doorState, alarm, configReport, ...) published. */
  events = 0;
  private pending: EventMessage[] = [];

  /** `onSent`: called after each non-empty batch (the NB-IoT wake window restarts, sleep.ts). */
  constructor(private readonly imei: string, private readonly onSent: () => void) {}

  /** Publishes `messages` now on `client` (QoS 1, in order). */
  publish(client: MqttClient, messages: EventMessage[]): void {
    for (const message of messages) {
      this.events++;
      client.publish(protocol.uplinkTopic(this.imei), JSON.stringify(message), { qos: 1 }, () => {});
    }
    if (messages.length > 0) this.onSent();
  }

  /** Something done at the door: published now when `client` is connected, else at the next flush. */
  report(client: MqttClient | undefined, messages: EventMessage[]): void {
    if (client?.connected) this.publish(client, messages);
    else this.pending.push(...messages);
  }

  /** Publishes what waited for the connection (called on connect). */
  flush(client: MqttClient): void {
    const pending = this.pending.splice(0);
    if (pending.length > 0) this.publish(client, pending);
  }
}
