/**
 * NB-IoT power saving of a simulated lock whose `alwaysOnline` is false (PSM-like): after each of its
 * uplinks the lock stays connected and reachable for a wake window (FleetOptions.wakeWindowMs, default
 * protocol.WAKE_WINDOW_MS; the server's fleet gets the server's WAKE_WINDOW_MS, the window its
 * dispatcher assumes), then disconnects gracefully (MQTT DISCONNECT; its session is persistent,
 * clean=false) until its next heartbeat is due, when it reconnects and reports.
 * A downlink answer in progress (e.g. fingerprint enrolment) keeps it awake, and every answer is an
 * uplink that opens a new window, so the platform can send the next queued command at once.
 * A lock whose heartbeat interval is not longer than the window never sleeps.
 *
 * A command the platform publishes in the instant the lock falls asleep is kept by the broker for the
 * persistent session and delivered at the next wake-up, as the network would.
 */

export class SleepCycle {
  /** Answers being prepared (the lock must not sleep meanwhile). */
  busy = 0;
  private timer: NodeJS.Timeout | undefined;

  /**
   * `enabled`: the lock sleeps at all; `windowMs`: wake window, ms; `goToSleep`: disconnects the lock;
   * `nextBeatAt`: when the next heartbeat is due, ms since epoch.
   */
  constructor(
    private readonly enabled: boolean,
    private readonly windowMs: number,
    private readonly goToSleep: () => void,
    private readonly nextBeatAt: () => number,
  ) {}

  /** The lock just sent an uplink: it stays awake for the window from now. */
  uplinkSent(): void {
    if (!this.enabled) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.windowEnded(), this.windowMs);
  }

  /** Stops the timer (lock stopped or going offline). */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private windowEnded(): void {
    this.timer = undefined;
    if (this.busy > 0) {
      this.uplinkSent(); // the answer's uplink will open a new window anyway
      return;
    }
    // Not worth sleeping when the next heartbeat is due within a second.
    if (this.nextBeatAt() - Date.now() < 1000) return;
    this.goToSleep();
  }
}
