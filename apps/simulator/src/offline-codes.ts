/**
 * The lock's side of offline codes (@iot/contract/offline-code, docs/offline-codes.md): it
 * holds the per-lock key the platform shared at registration, checks a typed code against its own clock
 * without any contact, and remembers the one-time codes already used until their window ends (so the
 * memory stays bounded: at most the codes of the last 6 hours).
 */
import { LOCK_UTC_OFFSET_MINUTES } from '@iot/contract';
import { offlineWindowBounds, verifyOfflineCode } from '@iot/contract/offline-code';

/** A matched code: its window's bounds (ms) and whether it works only once. */
export interface OfflineMatch {
  validFrom: number;
  validTo: number;
  oneTime: boolean;
  /** A one-time code opened with already. */
  used: boolean;
}

export class OfflineCodes {
  /** Used one-time codes -> end of their window, lock clock ms. */
  private readonly used = new Map<string, number>();

  /** `key`: the lock's 32-byte offline-code key. */
  constructor(private readonly key: Buffer) {}

  /** The window of `code` that holds lock time `at`, or undefined (a wrong code or one outside its window). */
  match(code: string, at: number): OfflineMatch | undefined {
    for (const [usedCode, until] of this.used) if (until <= at) this.used.delete(usedCode);
    const window = verifyOfflineCode(this.key, code, at, LOCK_UTC_OFFSET_MINUTES);
    if (!window) return undefined;
    return { ...offlineWindowBounds(window, LOCK_UTC_OFFSET_MINUTES), oneTime: window.kind === 'oneTime', used: this.used.has(code) };
  }

  /** Records an opening with a one-time code (refused from now until its window ends). */
  markUsed(code: string, match: OfflineMatch): void {
    if (match.oneTime) this.used.set(code, match.validTo);
  }
}
