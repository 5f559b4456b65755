/**
 * What a simulated lock sends back for its downlinks (runner.ts): the commandResult (with a
 * configReport or inventory where the command asks for one) after each answer's delay, and the steps of
 * a firmware transfer (ota.ts): chunk requests (sent again after CHUNK_TIMEOUT_MS without an answer),
 * status reports, and the reboot or power loss that ends it.
 */
import type { MqttClient } from 'mqtt';
import type { Answer } from './commands.js';
import type { EventMessage, SimulatedLock } from './lock.js';
import type { OtaAction } from './ota.js';
import type { SleepCycle } from './sleep.js';

/** A chunk request without an answer this long is sent again, ms. */
const CHUNK_TIMEOUT_MS = 5000;

/** What the answers need of their runner. */
export interface DownlinkHost {
  readonly lock: SimulatedLock;
  readonly nap: SleepCycle;
  /** The current connection; undefined while asleep, offline or restarting. */
  readonly client: MqttClient | undefined;
  readonly stopped: boolean;
  publish(client: MqttClient, messages: EventMessage[]): void;
  /** The lock goes off the air for `afterMs` and boots again, calling `onBoot` first (runner.ts restart). */
  restart(afterMs: number, onBoot: () => void): void;
}

/** Sends the commandResult (and configReport, inventory, open record) of each downlink answer after its delay. */
function sendAnswers(host: DownlinkHost, answers: Answer[]): void {
  for (const answer of answers) {
    host.nap.busy++;
    setTimeout(() => {
      host.nap.busy--;
      const client = host.client;
      if (host.stopped || !client) return; // lost with the connection; the platform retries
      const results: EventMessage[] = [host.lock.nextUplink({ type: 'commandResult', data: answer.result })];
      if (answer.configReport) results.push(host.lock.nextUplink({ type: 'configReport', data: { config: answer.configReport } }));
      if (answer.inventory) results.push(host.lock.nextUplink(host.lock.inventory('request')));
      if (answer.openRecord) results.push(host.lock.nextUplink({ type: 'openRecord', data: answer.openRecord }));
      host.publish(client, results);
    }, answer.delayMs);
  }
}

/** Carries out a firmware transfer's steps for one lock, with the chunk request's retry timer. */
export class OtaDriver {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly host: DownlinkHost) {}

  /** A payload on the downlink topic: a firmware transfer message is acted on, any other answered (sendAnswers). */
  receive(payload: Buffer): void {
    const actions = this.host.lock.otaDownlink(payload);
    if (actions) {
      this.cancel();
      this.act(actions);
    } else {
      sendAnswers(this.host, this.host.lock.handleDownlink(payload));
    }
  }

  /** Performs `actions` in order (ota.ts); a reboot or power loss ends the list. */
  act(actions: OtaAction[]): void {
    const host = this.host;
    const client = host.client;
    if (host.stopped || !client) return;
    for (const action of actions) {
      if (action.kind === 'request' || action.kind === 'status') {
        const type = action.kind === 'request' ? 'otaChunkRequest' : 'otaStatus';
        host.publish(client, [host.lock.nextUplink({ type, data: action.data } as never)]);
        if (action.kind === 'request') {
          this.cancel();
          this.timer = setTimeout(() => this.act(host.lock.ota.retry()), CHUNK_TIMEOUT_MS);
        }
      } else if (action.kind === 'reboot') {
        host.restart(action.afterMs, () => host.lock.rebooted());
        return;
      } else {
        host.restart(action.durationMs, () => {});
        return;
      }
    }
  }

  /** Stops waiting for a chunk (an answer came, or the lock goes down). */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
