/**
 * Error codes of the API with their HTTP status and messages in both languages (the API conventions of docs/api.md).
 * The spec's client (§8) treats 403 TOKEN_EXPIRED as "sign in again"; 403 FORBIDDEN only says "no permission".
 */
import type { LocalizedText } from '../i18n.js';

export const ERRORS = {
  VALIDATION_FAILED: { status: 400, message: { 'zh-CN': '请求参数有误', 'en-US': 'The request has invalid fields' } },
  CAPTCHA_INVALID: { status: 400, message: { 'zh-CN': '验证码错误或已过期', 'en-US': 'The captcha is wrong or has expired' } },
  KEY_EXPIRED: { status: 400, message: { 'zh-CN': '加密密钥已失效，请刷新页面', 'en-US': 'The encryption key has expired; reload the page' } },
  INVALID_CREDENTIALS: { status: 401, message: { 'zh-CN': '用户名或密码错误', 'en-US': 'Wrong username or password' } },
  ACCOUNT_DISABLED: { status: 401, message: { 'zh-CN': '账号已停用', 'en-US': 'This account is disabled' } },
  /** A wrong, used or expired second factor (authenticator or recovery code). Counts in sign-in throttling. */
  TWO_FACTOR_INVALID: { status: 401, message: { 'zh-CN': '两步验证码错误或已使用', 'en-US': 'The two-factor code is wrong or was already used' } },
  /** The challenge of the password step is unknown or older than 5 minutes. */
  TWO_FACTOR_CHALLENGE_EXPIRED: { status: 401, message: { 'zh-CN': '登录验证已超时，请重新输入密码', 'en-US': 'The sign-in has timed out; enter your password again' } },
  /** A role of the account (or DEMO=off, for a platform administrator) requires two-factor and the account has not enrolled yet. */
  TWO_FACTOR_ENROLMENT_REQUIRED: { status: 403, message: { 'zh-CN': '您的账号必须启用两步验证，请先完成登记', 'en-US': 'Your account requires two-factor sign-in; enrol first' } },
  /** A dangerous action needs a second factor verified within the last 5 minutes (POST /iot/v1/twoFactor/stepUp). */
  STEP_UP_REQUIRED: { status: 403, message: { 'zh-CN': '此操作需要再次进行两步验证', 'en-US': 'This action needs your two-factor code again' } },
  /** Confirming an enrolment that was not begun, or turning on what is already on. */
  TWO_FACTOR_NOT_PENDING: { status: 409, message: { 'zh-CN': '没有待确认的两步验证登记', 'en-US': 'There is no two-factor enrolment to confirm' } },
  /** Beginning an enrolment while two-factor is on (an administrator resets it first). */
  TWO_FACTOR_ALREADY_ON: { status: 409, message: { 'zh-CN': '两步验证已启用，如需重新登记请先停用（或请管理员重置）', 'en-US': 'Two-factor is already on; turn it off (or ask an administrator to reset it) to enrol again' } },
  /** Turning off two-factor that a role (or DEMO=off, for a platform administrator) requires. */
  TWO_FACTOR_REQUIRED: { status: 403, message: { 'zh-CN': '您的账号必须启用两步验证，不能停用', 'en-US': 'Your account requires two-factor sign-in; it cannot be turned off' } },
  /** Turning off, or renewing the recovery codes of, two-factor that is not on. */
  TWO_FACTOR_OFF: { status: 409, message: { 'zh-CN': '两步验证未启用', 'en-US': 'Two-factor sign-in is not on' } },
  /** The server has no OpenID provider configured (OIDC_ISSUER). */
  SSO_NOT_CONFIGURED: { status: 404, message: { 'zh-CN': '未配置单点登录', 'en-US': 'Single sign-on is not configured' } },
  /** The provider refused, or the answer did not check out (state, PKCE, nonce, signature, expired transaction). */
  SSO_FAILED: { status: 401, message: { 'zh-CN': '单点登录失败或已超时，请重新登录', 'en-US': 'Single sign-on failed or timed out; sign in again' } },
  /** No mapping rule of any data centre matches the person's claims. */
  SSO_NO_RULE: { status: 403, message: { 'zh-CN': '您的身份未被授权访问本平台，请联系管理员配置单点登录映射规则', 'en-US': 'Your identity is not authorised here; ask an administrator for a single sign-on rule' } },
  /** The data centre signs its operators in with single sign-on only (platform administrators keep the password). */
  PASSWORD_SIGN_IN_OFF: { status: 403, message: { 'zh-CN': '该数据中心已停用密码登录，请使用单点登录', 'en-US': 'Password sign-in is off for this data centre; use single sign-on' } },
  /** Turning password sign-in off (or deleting the last rule while it is off) would leave nobody a way in. */
  SSO_RULE_REQUIRED: { status: 409, message: { 'zh-CN': '请先配置单点登录并至少添加一条映射到本数据中心的规则', 'en-US': 'Configure single sign-on and add at least one rule for this data centre first' } },
  TOKEN_EXPIRED: { status: 403, message: { 'zh-CN': '您的token已过期，请重新登录！', 'en-US': 'Your session has expired; please sign in again!' } },
  FORBIDDEN: { status: 403, message: { 'zh-CN': '没有权限', 'en-US': 'No permission' } },
  /** Granting, binding or managing more than the caller holds. */
  ESCALATION: { status: 403, message: { 'zh-CN': '不能授予或管理超出自身权限的内容', 'en-US': 'You cannot grant or manage more than you hold' } },
  /** Deleting or disabling one's own account, or binding one's own roles. */
  SELF_ACTION: { status: 403, message: { 'zh-CN': '不能对自己的账号执行此操作', 'en-US': 'You cannot do this to your own account' } },
  NOT_FOUND: { status: 404, message: { 'zh-CN': '资源不存在', 'en-US': 'Not found' } },
  CONFLICT: { status: 409, message: { 'zh-CN': '数据冲突', 'en-US': 'Conflicting data' } },
  LAST_ADMIN: { status: 409, message: { 'zh-CN': '不能删除或停用最后一个启用的管理员', 'en-US': 'The last enabled administrator cannot be deleted or disabled' } },
  /** A lock already has protocol.MAX_QUEUED_PER_DEVICE queued commands. */
  QUEUE_FULL: { status: 409, message: { 'zh-CN': '该门锁排队中的指令已达上限（20 条），请稍后再试', 'en-US': 'This lock already has 20 queued commands; try again later' } },
  /** Only a QUEUED command can be canceled. */
  COMMAND_NOT_QUEUED: { status: 409, message: { 'zh-CN': '只能取消排队中的指令', 'en-US': 'Only a queued command can be canceled' } },
  /** The lock model has no free slot left in that table. */
  CAPACITY_FULL: { status: 409, message: { 'zh-CN': '门锁该类凭证容量已满', 'en-US': 'The lock has no free slot for this credential' } },
  /** The same password digits or card number is already on the lock. */
  DUPLICATE_CREDENTIAL: { status: 409, message: { 'zh-CN': '该门锁上已存在相同的凭证', 'en-US': 'The same credential already exists on this lock' } },
  /** Matter DlStatus Duplicate: the same schedule is already held by the user (or calendar). */
  SCHEDULE_DUPLICATE: { status: 409, message: { 'zh-CN': '已存在相同的时间表', 'en-US': 'The same schedule already exists' } },
  /** Matter DlStatus Occupied: the schedule overlaps another of the same user. */
  SCHEDULE_OCCUPIED: { status: 409, message: { 'zh-CN': '时间段与已有时间表重叠', 'en-US': 'The time overlaps an existing schedule' } },
  /** Matter DlStatus ResourceExhausted: the device type holds no more schedules of that kind. */
  RESOURCE_EXHAUSTED: { status: 409, message: { 'zh-CN': '门锁可保存的时间表数量已满', 'en-US': 'The lock holds no more schedules of this kind' } },
  /** An operation of the row is still waiting for the lock's answer. */
  CREDENTIAL_BUSY: { status: 409, message: { 'zh-CN': '该凭证正在同步中，请等待门锁应答', 'en-US': 'This credential is still syncing; wait for the lock to answer' } },
  /** Retry/discard apply only to a failed operation. */
  NOT_FAILED: { status: 409, message: { 'zh-CN': '只能重试或放弃同步失败的记录', 'en-US': 'Only a failed operation can be retried or discarded' } },
  /** The lock's service period has ended; granting access and remote changes wait for a renewal. */
  SERVICE_EXPIRED: { status: 402, message: { 'zh-CN': '该门锁服务已到期，请续费后再操作（删除凭证、冻结用户等安全操作不受影响）', 'en-US': 'This lock\'s service has expired; renew it first (deleting credentials, freezing users and other safety actions still work)' } },
  /** WeChat Pay did not answer or refused; nothing was charged. */
  PAYMENT_UNAVAILABLE: { status: 502, message: { 'zh-CN': '支付服务暂不可用，请稍后再试', 'en-US': 'The payment service is unavailable; try again later' } },
  /** An Idempotency-Key already used with another request body (or another call). */
  IDEMPOTENCY_KEY_REUSED: { status: 422, message: { 'zh-CN': '该 Idempotency-Key 已用于另一个请求，请换一个新的键', 'en-US': 'This Idempotency-Key was used for a different request; use a new key' } },
  /** The first request with this Idempotency-Key is still running (or its answer was lost in a crash). */
  IDEMPOTENCY_IN_PROGRESS: { status: 409, message: { 'zh-CN': '使用该 Idempotency-Key 的请求仍在处理中，请稍后重试', 'en-US': 'A request with this Idempotency-Key is still being processed; retry shortly' } },
  METHOD_NOT_ALLOWED: { status: 405, message: { 'zh-CN': '不支持该请求方法', 'en-US': 'This method is not allowed here' } },
  PAYLOAD_TOO_LARGE: { status: 413, message: { 'zh-CN': '请求内容过大', 'en-US': 'The request body is too large' } },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: { 'zh-CN': '不支持的请求内容类型', 'en-US': 'Unsupported content type' } },
  TOO_MANY_ATTEMPTS: { status: 429, message: { 'zh-CN': '尝试次数过多，请稍后再试', 'en-US': 'Too many attempts; try again later' } },
  INTERNAL: { status: 500, message: { 'zh-CN': '服务器内部错误', 'en-US': 'Internal server error' } },
  UNAVAILABLE: { status: 503, message: { 'zh-CN': '服务器繁忙，请稍后再试', 'en-US': 'The server is busy; try again shortly' } },
} as const satisfies Record<string, { status: number; message: LocalizedText }>;

export type ErrorCode = keyof typeof ERRORS;

/**
 * Why an administrator's change ended someone's sessions: the 403 TOKEN_EXPIRED those
 * sessions get next carries this message instead of "token expired", so the person knows why.
 */
export const SIGN_OUT_REASONS = {
  passwordChanged: { 'zh-CN': '管理员修改了您的密码，请使用新密码重新登录', 'en-US': 'An administrator changed your password; sign in with the new one' },
  rolesChanged: { 'zh-CN': '管理员修改了您的角色权限，请重新登录', 'en-US': 'An administrator changed your roles; sign in again' },
  disabled: { 'zh-CN': '您的账号已被管理员停用', 'en-US': 'An administrator disabled your account' },
  /** Signed out from another session of the same account. */
  signedOutElsewhere: { 'zh-CN': '此会话已在您的其他会话中被退出，请重新登录', 'en-US': 'This session was signed out from another of your sessions; sign in again' },
  /** An account manager signed the session out. */
  signedOutByManager: { 'zh-CN': '管理员已结束您的会话，请重新登录', 'en-US': 'An administrator ended your session; sign in again' },
  /** The OpenID provider said the person signed out there (back-channel logout). */
  ssoLoggedOut: { 'zh-CN': '您已在单点登录服务中退出，请重新登录', 'en-US': 'You signed out at the single sign-on provider; sign in again' },
  /** The data centre turned password sign-in off; password sessions of its operators ended. */
  passwordSignInOff: { 'zh-CN': '该数据中心已停用密码登录，请使用单点登录重新登录', 'en-US': 'Password sign-in was turned off for this data centre; sign in with single sign-on' },
} as const satisfies Record<string, LocalizedText>;
export type SignOutReason = keyof typeof SIGN_OUT_REASONS;
