/**
 * What the console frame needs of the live stream at start, as plain data (no endpoint tables, so no
 * zod schema is built for them on a first load): the events the stream listens to and the paths of
 * the endpoints those events refresh. The rules themselves stay in targets.ts, which loads with the
 * stream (LiveConnection.tsx); livePaths.test.ts checks these lists against it, so targets.ts stays
 * the one source.
 */
import type { EventName } from '@iot/contract';

/** The events the console listens to: the keys of targets.ts LIVE_TARGETS, in its order. */
export const LIVE_EVENT_NAMES: readonly EventName[] = [
  'lock.heartbeat', 'lock.uplink', 'lock.presence', 'lock.alarm', 'lock.changed', 'command.queued', 'command.state', 'credential.sync',
  'credential.drift', 'airSwitch.reading', 'airSwitch.alarm', 'ota.state', 'order.state', 'role.changed', 'notification.inbox',
];

/**
 * Paths of every endpoint some event refreshes (targets.ts LIVE_TARGETS): their queries do not poll
 * while the stream is up (api/useApiQuery.ts, screen/useScreenQuery.ts).
 */
export const LIVE_PATHS: ReadonlySet<string> = new Set([
  '/iot/v1/airSwitch/alertLog/list', '/iot/v1/airSwitch/alerts', '/iot/v1/airSwitch/command', '/iot/v1/airSwitch/detail',
  '/iot/v1/airSwitch/list', '/iot/v1/firmware/lockHistory', '/iot/v1/firmware/rollout/detail', '/iot/v1/firmware/rollout/list',
  '/iot/v1/firmware/rollout/locks', '/iot/v1/lockAlert/list', '/iot/v1/lockConfigList', '/iot/v1/lockDevice/analysis',
  '/iot/v1/lockDevice/analysis/airSwitches', '/iot/v1/lockDevice/analysis/feed', '/iot/v1/lockDevice/capacity', '/iot/v1/lockDevice/drift',
  '/iot/v1/lockDevice/information', '/iot/v1/lockDevice/journal', '/iot/v1/lockDevice/list', '/iot/v1/lockDevice/survey',
  '/iot/v1/lockDevice/whoCanOpen', '/iot/v1/lockOpenRecord/list', '/iot/v1/logDownCommand/list', '/iot/v1/logDownCommand/simpleList',
  '/iot/v1/logHeartbeat/batteryList', '/iot/v1/logHeartbeat/list', '/iot/v1/logHeartbeat/rssiList', '/iot/v1/logUpCommand/list',
  '/iot/v1/notification/inbox', '/iot/v1/operateCard/list', '/iot/v1/operateCard/log', '/iot/v1/operateFp/list', '/iot/v1/operateFp/log',
  '/iot/v1/operatePassword/list', '/iot/v1/operatePassword/log', '/iot/v1/operateUser/list', '/iot/v1/operateUser/log',
  '/iot/v1/wx/orderInfo', '/iot/v1/wx/orderInfo/list', '/iot/v1/wx/serviceSummary', '/v1/sysRole/queryAll',
]);
