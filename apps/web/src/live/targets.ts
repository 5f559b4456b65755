/**
 * What each domain event of the live stream refreshes in the console: the contract
 * endpoints whose cached answers it makes stale. A `perLock` endpoint answers about one lock (its
 * `lockId` or `imei` query): only the queries about a lock the event touched are refreshed.
 * Telemetry (heartbeats, uplinks, readings) refreshes a view at most every TELEMETRY_GAP_MS while
 * it keeps coming; every other event within STATE_GAP_MS. An endpoint listed here stops polling while
 * the stream is up (api/useApiQuery.ts): its REFETCH_MS is then only the fallback. Loaded with the stream
 * (LiveConnection.tsx); the frame reads the event names and paths from livePaths.ts, checked against this table.
 */
import {
  airSwitchAlertLogEndpoints, airSwitchEndpoints, alertEndpoints, analysisEndpoints, commandEndpoints, credentialEndpoints, type Endpoint,
  type EventName, firmwareEndpoints, heartbeatLogEndpoints, journalEndpoints, lockDriftEndpoints, lockEndpoints, lockInformationEndpoints, notificationInboxEndpoints, openRecordEndpoints,
  roleEndpoints, uplinkLogEndpoints, billingEndpoints,
} from '@iot/contract';

export interface LiveTarget {
  endpoint: Endpoint;
  /** Refresh only the queries about a lock the event touched (device page, per-lock charts and queues). */
  perLock?: true;
  /**
   * The answer comes from a snapshot the server refreshes on its own period (the analysis figures:
   * `generatedAt`): while a refresh brings the same snapshot back, ask again (SNAPSHOT_RETRY_MS, at most SNAPSHOT_RETRIES times).
   */
  snapshot?: (data: unknown) => unknown;
}

/** A busy telemetry feed refreshes a view at most this often, ms. */
export const TELEMETRY_GAP_MS = 5000;
/** Any other event refreshes a view at most this often, ms (a new alarm shows within a second). */
export const STATE_GAP_MS = 1000;
/** Events arriving this close together refresh once, ms. */
export const DEBOUNCE_MS = 100;
/** A snapshot answer that has not moved yet is asked again after this long, ms, at most SNAPSHOT_RETRIES times. */
export const SNAPSHOT_RETRY_MS = 2000;
export const SNAPSHOT_RETRIES = 4;

/** Events that are telemetry (TELEMETRY_GAP_MS). */
export const TELEMETRY_EVENTS: ReadonlySet<EventName> = new Set<EventName>(['lock.heartbeat', 'lock.uplink', 'airSwitch.reading']);

const device: LiveTarget = { endpoint: lockInformationEndpoints.information, perLock: true };
const perLock = (endpoint: Endpoint): LiveTarget => ({ endpoint, perLock: true });
const all = (...endpoints: Endpoint[]): LiveTarget[] => endpoints.map((endpoint) => ({ endpoint }));
/** The home KPIs and the big screen's figures: read from the analysis snapshot. */
const figures: LiveTarget = { endpoint: analysisEndpoints.analysis, snapshot: (data) => (data as { generatedAt?: string } | undefined)?.generatedAt };
const { user, password, card, fp } = credentialEndpoints;
const credentialLists = all(credentialEndpoints.userList, credentialEndpoints.passwordList, credentialEndpoints.cardList, credentialEndpoints.fpList, user.log, password.log, card.log, fp.log);
const commandViews = [...all(commandEndpoints.list, commandEndpoints.lockConfigList, airSwitchEndpoints.command), perLock(commandEndpoints.simpleList), device];
const airSwitchViews = all(airSwitchEndpoints.list, airSwitchEndpoints.detail, analysisEndpoints.airSwitches);

/** Event name -> what it refreshes. Events absent here refresh nothing (they never reach a console). */
export const LIVE_TARGETS: { readonly [K in EventName]?: readonly LiveTarget[] } = {
  'lock.heartbeat': [
    ...all(lockEndpoints.list, lockEndpoints.survey, heartbeatLogEndpoints.list), figures,
    device, perLock(heartbeatLogEndpoints.batteryList), perLock(heartbeatLogEndpoints.rssiList),
  ],
  'lock.uplink': [
    ...all(uplinkLogEndpoints.list, openRecordEndpoints.list, analysisEndpoints.feed), figures,
    device, perLock(journalEndpoints.journal),
  ],
  'lock.presence': [...all(lockEndpoints.list, lockEndpoints.survey, commandEndpoints.lockConfigList), figures, device],
  'lock.alarm': [...all(alertEndpoints.list, lockEndpoints.list, analysisEndpoints.feed), figures, device],
  'lock.changed': [...all(lockEndpoints.list, lockEndpoints.survey, commandEndpoints.lockConfigList), figures, device],
  'command.queued': commandViews,
  'command.state': [...commandViews, ...credentialLists],
  'credential.sync': [...credentialLists, perLock(credentialEndpoints.capacity), perLock(credentialEndpoints.whoCanOpen), perLock(lockDriftEndpoints.drift), device],
  'credential.drift': [perLock(lockDriftEndpoints.drift), device],
  'airSwitch.reading': airSwitchViews,
  'airSwitch.alarm': [...airSwitchViews, ...all(airSwitchEndpoints.alerts, airSwitchAlertLogEndpoints.list)],
  'ota.state': [...all(firmwareEndpoints.rollouts, firmwareEndpoints.rollout, firmwareEndpoints.rolloutLocks), perLock(firmwareEndpoints.lockHistory), device],
  'order.state': all(billingEndpoints.orderList, billingEndpoints.orderInfo, billingEndpoints.serviceSummary),
  'role.changed': all(roleEndpoints.list),
  // Addressed to the account: the header's bell and drawer.
  'notification.inbox': all(notificationInboxEndpoints.list),
};
