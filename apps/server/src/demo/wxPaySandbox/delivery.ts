/**
 * How the sandbox delivers notifications, as WeChat Pay does in practice: after a short
 * delay, sometimes much later, sometimes twice; a refused delivery (not 2xx) is retried a few times
 * with a growing pause. `drop` loses them all (tests of reconciliation).
 */
import { signedNotification, type PlatformSigner } from './signing.js';

export interface SandboxBehaviour {
  /** Chance that a notification is sent twice. */
  duplicateRate: number;
  /** Usual delay before sending, ms [min, max]. */
  delayMs: readonly [number, number];
  /** Chance that it comes `lateMs` later instead. */
  lateRate: number;
  lateMs: number;
  /** Send nothing (lost notifications). */
  drop: boolean;
  /** A refund succeeds this long after it was asked for, ms. */
  refundDelayMs: number;
  /** Retries of a refused delivery. */
  retries: number;
}

export const DEFAULT_BEHAVIOUR: SandboxBehaviour = {
  duplicateRate: 0.3, delayMs: [200, 1500], lateRate: 0.2, lateMs: 8000, drop: false, refundDelayMs: 1500, retries: 3,
};

/** Timers of deliveries (stopped with the sandbox) and the send function. */
export function deliverer(options: SandboxBehaviour, apiV3Key: string, signer: PlatformSigner) {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const later = (ms: number, fn: () => void) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!stopped) fn();
    }, ms);
    timers.add(timer);
  };
  const post = (url: string, eventType: string, resource: object, attempt: number) => {
    const { body, headers } = signedNotification(eventType, resource, apiV3Key, signer);
    fetch(url, { method: 'POST', body, headers, signal: AbortSignal.timeout(10_000) })
      .then((response) => response.ok)
      .catch(() => false)
      .then((ok) => { if (!ok && attempt < options.retries) later(1000 * 2 ** attempt, () => post(url, eventType, resource, attempt + 1)); });
  };
  const send = (url: string, eventType: string, resource: object) => {
    if (options.drop) return;
    const [min, max] = options.delayMs;
    const delay = Math.random() < options.lateRate ? options.lateMs : min + Math.random() * (max - min);
    later(delay, () => post(url, eventType, resource, 0));
    if (Math.random() < options.duplicateRate) later(delay + 50 + Math.random() * 500, () => post(url, eventType, resource, 0));
  };
  return {
    send,
    later,
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
