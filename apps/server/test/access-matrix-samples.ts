/**
 * The access matrix's expectations (access-matrix.test.ts): every route of the app with the access it
 * must declare and an input that works when allowed, built from the fixture's ids.
 */
import { LOCK_PICKER_ACCESS, LOCK_USER_PICKER_ACCESS, ROLE_PICKER_ACCESS, type RouteAccess } from '@iot/contract';
import { ACCESS_SCHEDULE_SAMPLES } from './access-matrix-samples-late.js';

export interface Fixture {
  victim: Record<'delete' | 'password' | 'enable' | 'bind', number>;
  role: Record<'update' | 'delete' | 'bind', number>;
  password: { password: string; keyId: string };
}

export interface Sample {
  /** The access the route must declare. */
  access: RouteAccess;
  /** `platform`: a platform-wide object: holders of the key are refused unless platform administrators. */
  scope?: 'platform';
  query?: (f: Fixture) => string;
  body?: (f: Fixture) => object;
  /** The call ends the caller's sign-in: allowed callers use a fresh token. */
  endsSession?: boolean;
  /** The route answers a stream (the live stream): allowed callers get its head, then it is left open until the app closes. */
  stream?: boolean;
}

/** Every route of the app with the access it must have and an input that would work when allowed. */
export const SAMPLES: Record<string, Sample> = {
  'GET /': { access: 'public' },
  'GET /static/config.json': { access: 'public' },
  'GET /healthz': { access: 'public' },
  'GET /readyz': { access: 'public' },
  'GET /openapi.json': { access: 'public' },
  'GET /docs': { access: 'public' },
  'GET /docs/': { access: 'public' },
  'GET /docs/js/scalar.js': { access: 'public' },
  'GET /docs/openapi.json': { access: 'public' },
  'GET /docs/openapi.yaml': { access: 'public' },
  'GET /oauth/key': { access: 'public' },
  'GET /oauth/checkCode': { access: 'public' },
  'POST /oauth/checkCode/match': { access: 'public', body: () => ({ checkCodeId: 'none', checkCode: 'abcd' }) },
  'POST /oauth/token': { access: 'public', body: () => ({ username: 'nobody', password: 'AAAA', keyId: 'none' }) },
  'POST /oauth/token/twoFactor': { access: 'public', body: () => ({ challenge: 'none', code: '000000' }) },
  'GET /oauth/userInfo': { access: 'authenticated' },
  'GET /iot/v1/tenant/settings': { access: 'authenticated' },
  'POST /iot/v1/tenant/settings': { access: 'TENANT_SETTINGS', body: () => ({ timeZone: 'Asia/Shanghai' }) },
  'POST /oauth/logout': { access: 'authenticated', endsSession: true },
  // The live stream: any signed-in account, scoped inside by data centre and authority.
  'POST /iot/v1/events/ticket': { access: 'authenticated' },
  'GET /iot/v1/events': { access: 'authenticated', stream: true },
  'GET /iot/v1/lockDevice/list': { access: 'LOOK_INFO' },
  'GET /iot/v1/lockDevice/analysis': { access: 'HOME_PAGE' },
  'GET /iot/v1/lockDevice/analysis/feed': { access: 'HOME_PAGE' },
  'GET /iot/v1/lockDevice/analysis/airSwitches': { access: 'HOME_PAGE' },
  'GET /iot/v1/lockDevice/analysis/thresholds': { access: 'LOCK_ALERT_LOG' },
  'POST /iot/v1/lockDevice/analysis/thresholds': { access: 'LOCK_ALERT_LOG', body: () => ({ forcedEntryS: 30, bruteForceAttempts: 5, bruteForceLocks: 3, bruteForceWindowS: 300, silentIntervals: 3, batteryCliffDays: 7 }) },
  'GET /iot/v1/lockDevice/lockRoomList': { access: LOCK_PICKER_ACCESS, query: () => 'keyword=8612' },
  'GET /iot/v1/lockDevice/survey': { access: 'LOOK_INFO' },
  'GET /iot/v1/lockDevice/importTemplate': { access: 'LOCK_REGISTRY', query: () => 'format=csv' },
  // Not multipart: allowed callers get 400, never a change.
  'POST /iot/v1/lockDevice/importCheck': { access: 'LOCK_REGISTRY', body: () => ({}) },
  'POST /iot/v1/lockDevice/import': { access: 'LOCK_REGISTRY', body: () => ({}) },
  'GET /iot/v1/lockDevice/locationTree': { access: 'LOOK_INFO', query: () => `building=${encodeURIComponent('A栋')}` },
  'POST /v1/account/add/user': { access: 'LOGIN_ACCOUNT', body: (f) => ({ username: 'matrix-new', ...f.password }) },
  'GET /v1/account/queryAll': { access: ['LOGIN_ACCOUNT', 'BINDING_ROLES'] },
  'POST /v1/account/delete/user': { access: 'LOGIN_ACCOUNT', body: (f) => ({ id: f.victim.delete }) },
  'POST /v1/account/edit/password': { access: 'LOGIN_ACCOUNT', body: (f) => ({ id: f.victim.password, ...f.password }) },
  'POST /v1/account/enable': { access: 'LOGIN_ACCOUNT', body: (f) => ({ id: f.victim.enable, enabled: false }) },
  'GET /v1/account/queryRoles': { access: 'BINDING_ROLES', query: (f) => `accountId=${f.victim.bind}` },
  'GET /v1/sysRole/queryAll': { access: ROLE_PICKER_ACCESS },
  'POST /v1/sysRole/add': { access: 'ROLE_PERMISSIONS', body: () => ({ name: 'matrix-role', authorities: [] }) },
  'POST /v1/sysRole/update': { access: 'ROLE_PERMISSIONS', body: (f) => ({ id: f.role.update, name: 'matrix-updated', authorities: [] }) },
  'POST /v1/sysRole/delete': { access: 'ROLE_PERMISSIONS', body: (f) => ({ id: f.role.delete }) },
  'POST /v1/sysUserRole/bind': { access: 'BINDING_ROLES', body: (f) => ({ accountId: f.victim.bind, roleIds: [f.role.bind] }) },
  'GET /iot/v1/SysOperateLog/getLogList': { access: 'SYSTEM_LOG' },
  'GET /iot/v1/SysOperateLog/export': { access: 'SYSTEM_LOG' },
  'GET /iot/v1/logUpCommand/list': { access: 'COMMAND_UP_LOG' },
  'GET /iot/v1/logUpCommand/export': { access: 'COMMAND_UP_LOG' },
  'GET /iot/v1/logHeartbeat/list': { access: 'HEARTBEAT_LOG' },
  'GET /iot/v1/logHeartbeat/export': { access: 'HEARTBEAT_LOG' },
  'GET /iot/v1/logHeartbeat/batteryList': { access: ['HEARTBEAT_LOG', 'LOOK_INFO'], query: () => 'imei=861234500000000' },
  'GET /iot/v1/logHeartbeat/rssiList': { access: ['HEARTBEAT_LOG', 'LOOK_INFO'], query: () => 'imei=861234500000000' },
  'GET /iot/v1/lockAlert/list': { access: 'LOCK_ALERT_LOG' },
  'GET /iot/v1/lockAlert/export': { access: 'LOCK_ALERT_LOG', query: () => 'format=xlsx' },
  'POST /iot/v1/lockAlert/acknowledge': { access: 'LOCK_ALERT_LOG', body: () => ({ ids: [1] }) },
  // The air switches' alarms on the same 报警日志 page, under the log's own authority.
  'GET /iot/v1/airSwitch/alertLog/list': { access: 'LOCK_ALERT_LOG' },
  'GET /iot/v1/airSwitch/alertLog/export': { access: 'LOCK_ALERT_LOG', query: () => 'format=xlsx' },
  'POST /iot/v1/airSwitch/alertLog/acknowledge': { access: 'LOCK_ALERT_LOG', body: () => ({ ids: [999_999] }) },
  'GET /iot/v1/lockOpenRecord/list': { access: 'LOCK_OPEN_RECORD_LOG' },
  'GET /iot/v1/lockOpenRecord/export': { access: 'LOCK_OPEN_RECORD_LOG' },
  'GET /iot/v1/lockOpenRecordList': { access: 'LOCK_OPEN_RECORD_LOG', query: () => 'imei=861234500000000' },
  'GET /iot/v1/lockDevice/journal': { access: 'LOOK_INFO', query: () => 'imei=861234500000000' },
  'GET /iot/v1/logDownCommand/list': { access: 'COMMAND_DOWN_LOG' },
  'GET /iot/v1/logDownCommand/simpleList': { access: ['COMMAND_DOWN_LOG', 'LOOK_CONFIG'], query: () => 'lockId=1' },
  'POST /iot/v1/logDownCommand/cancel': { access: 'COMMAND_DOWN_LOG', body: () => ({ id: 999_999 }) },
  'GET /iot/v1/isp/logDownPara': { access: 'COMMAND_DOWN_LOG', query: () => 'id=999999' },
  'GET /iot/v1/zg/logDownPara': { access: 'COMMAND_DOWN_LOG', query: () => 'id=999999' },
  'GET /iot/v1/lockConfigList': { access: 'LOOK_CONFIG' },
  'POST /iot/v1/lockConfig': { access: 'LOOK_CONFIG', body: () => ({ lockId: 1, config: { volume: 40 } }) },
  'POST /iot/v1/lockDevice/clockSync': { access: 'LOOK_CONFIG', body: () => ({ lockId: 1 }) },
  'POST /iot/v1/lockConfig/batch': { access: 'LOOK_CONFIG', body: () => ({ target: { imeis: ['000000000000000'] }, config: { volume: 40 } }) },
  // Credential management.
  'POST /iot/v1/zg/userOperation': { access: 'VOUCHER_USER_MANAGE', body: () => ({ action: 'add', lockId: 1, name: 'matrix' }) },
  'POST /iot/v1/zg/foreverPassword': { access: 'VOUCHER_PASSWORD_MANAGE', body: () => ({ action: 'delete', id: 999_999 }) },
  'POST /iot/v1/zg/tempPassword': { access: 'VOUCHER_PASSWORD_MANAGE', body: () => ({ action: 'delete', id: 999_999 }) },
  'POST /iot/v1/zg/cardOperate': { access: 'VOUCHER_CARD_MANAGE', body: () => ({ action: 'reportLost', cardNumber: 'A1B2C3D4' }) },
  'POST /iot/v1/zg/addFingerPrint': { access: 'VOUCHER_FP_MANAGE', body: () => ({ action: 'delete', id: 999_999 }) },
  'POST /iot/v1/zg/registerDevice': { access: 'LOOK_CONFIG', body: () => ({ lockId: 1 }) },
  'POST /iot/v1/zg/deleteDevice': { access: 'LOOK_CONFIG', body: () => ({ lockId: 999_999 }) },
  'GET /iot/v1/operateUser/list': { access: LOCK_USER_PICKER_ACCESS },
  'GET /iot/v1/operatePassword/list': { access: 'VOUCHER_PASSWORD_MANAGE' },
  'GET /iot/v1/operateCard/list': { access: 'VOUCHER_CARD_MANAGE' },
  'GET /iot/v1/operateFp/list': { access: 'VOUCHER_FP_MANAGE' },
  'GET /iot/v1/operateUser/log': { access: 'OPERATE_USER_LOG' },
  'GET /iot/v1/operatePassword/log': { access: 'OPERATE_PASSWORD_LOG' },
  'GET /iot/v1/operateCard/log': { access: 'OPERATE_CARD_LOG' },
  'GET /iot/v1/operateFp/log': { access: 'OPERATE_FP_LOG' },
  'POST /iot/v1/operateUser/retry': { access: 'VOUCHER_USER_MANAGE', body: () => ({ id: 999_999 }) },
  'POST /iot/v1/operateUser/discard': { access: 'VOUCHER_USER_MANAGE', body: () => ({ id: 999_999 }) },
  'POST /iot/v1/operatePassword/retry': { access: 'VOUCHER_PASSWORD_MANAGE', body: () => ({ id: 999_999 }) },
  'POST /iot/v1/operatePassword/discard': { access: 'VOUCHER_PASSWORD_MANAGE', body: () => ({ id: 999_999 }) },
  'POST /iot/v1/operateCard/retry': { access: 'VOUCHER_CARD_MANAGE', body: () => ({ id: 999_999 }) },
  'POST /iot/v1/operateCard/discard': { access: 'VOUCHER_CARD_MANAGE', body: () => ({ id: 999_999 }) },
  'POST /iot/v1/operateFp/retry': { access: 'VOUCHER_FP_MANAGE', body: () => ({ id: 999_999 }) },
  'POST /iot/v1/operateFp/discard': { access: 'VOUCHER_FP_MANAGE', body: () => ({ id: 999_999 }) },
  'POST /iot/v1/operatePassword/reveal': { access: 'VOUCHER_PASSWORD_REVEAL', body: () => ({ id: 999_999 }) },
  'POST /iot/v1/operateUser/offboard': { access: 'VOUCHER_USER_MANAGE', body: () => ({ phone: '13800000000' }) },
  'GET /iot/v1/operateUser/offboardPreview': { access: 'VOUCHER_USER_MANAGE', query: () => 'phone=13800000000' },
  'POST /iot/v1/operateUser/commandStates': { access: ['VOUCHER_USER_MANAGE', 'VOUCHER_CARD_MANAGE'], body: () => ({ commandIds: [999_999] }) },
  'GET /iot/v1/lockDevice/capacity': { access: ['VOUCHER_USER_MANAGE', 'VOUCHER_PASSWORD_MANAGE', 'VOUCHER_CARD_MANAGE', 'VOUCHER_FP_MANAGE', 'VOUCHER_SCHEDULE_MANAGE', 'LOOK_INFO'], query: () => 'lockId=1' },
  'GET /iot/v1/lockDevice/whoCanOpen': { access: ['LOOK_INFO', 'VOUCHER_USER_MANAGE', 'VOUCHER_SCHEDULE_MANAGE'], query: () => 'lockId=1' },
  // Work orders: an unknown order or alert is a 404 or 400, so an allowed caller changes nothing.
  'GET /iot/v1/workOrder/list': { access: 'LOCK_ALERT_LOG' },
  'GET /iot/v1/workOrder/assignees': { access: 'LOCK_ALERT_LOG' },
  'GET /iot/v1/workOrder/detail': { access: 'LOCK_ALERT_LOG', query: () => 'id=999999' },
  'POST /iot/v1/workOrder/add': { access: 'LOCK_ALERT_LOG', body: () => ({ title: 'matrix', kind: 'other', locks: [999_999] }) },
  'POST /iot/v1/workOrder/fromAlerts': { access: 'LOCK_ALERT_LOG', body: () => ({ alertIds: [999_999] }) },
  'POST /iot/v1/workOrder/edit': { access: 'LOCK_ALERT_LOG', body: () => ({ id: 999_999, title: 'matrix', kind: 'other' }) },
  'POST /iot/v1/workOrder/transition': { access: 'LOCK_ALERT_LOG', body: () => ({ id: 999_999, state: 'CANCELLED' }) },
  // Not multipart: allowed callers get 400, never a change.
  'POST /iot/v1/workOrder/photo/add': { access: 'LOCK_ALERT_LOG', body: () => ({}) },
  'GET /iot/v1/workOrder/photo': { access: 'LOCK_ALERT_LOG', query: () => 'id=999999' },
  'POST /iot/v1/workOrder/photo/delete': { access: 'LOCK_ALERT_LOG', body: () => ({ id: 999_999 }) },
  ...ACCESS_SCHEDULE_SAMPLES,
};
