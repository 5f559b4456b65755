/**
 * A load-generator worker process (forked by coordinator.ts): holds the locks of its FleetOptions
 * (fleet.ts) and speaks to the coordinator over IPC:
 *   coordinator -> worker: FleetOptions (once), then { publishing: boolean } or 'end';
 *   worker -> coordinator: its FleetCounters every REPORT_MS, and once more right before exiting on 'end'.
 */
import { WorkerFleet } from './fleet.js';
import type { FleetOptions } from './types.js';

/** How often the counters go to the coordinator, ms. */
const REPORT_MS = 250;

const options = await new Promise<FleetOptions>((resolve) => process.once('message', (m) => resolve(m as FleetOptions)));
const fleet = new WorkerFleet(options);
const report = () => process.send?.(fleet.counters);
const reporter = setInterval(report, REPORT_MS);
process.on('message', (message: { publishing?: boolean } | 'end') => {
  if (message === 'end') {
    clearInterval(reporter);
    fleet.end();
    report();
    setTimeout(() => process.exit(0), 100);
  } else if (typeof message.publishing === 'boolean') fleet.publishing = message.publishing;
});
// The coordinator gone (killed, crashed): do not linger holding thousands of sockets.
process.on('disconnect', () => process.exit(0));
