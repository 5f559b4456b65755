/**
 * GET /oauth/userInfo in the stored data centre. The server answers 403 FORBIDDEN when the account
 * may not use that tenant (e.g. the default 100); then the other data centres of /static/config.json
 * are tried in order and the first that works is stored, so sign-in lands in a usable tenant.
 */
import { ERRORS, type UserInfo } from '@iot/contract';
import { getLanguage, getTenantId, setTenantId } from '../session/session';
import { setTimeZone } from '../lib/timeZone';
import { ApiError, call } from './client';
import { firstLoadEndpoints } from './firstLoad';
import { notifyError } from './notify';

const { auth: authEndpoints, tenant: tenantEndpoints } = firstLoadEndpoints;

const isForbidden = (error: unknown) => error instanceof ApiError && error.code === 'FORBIDDEN';

/** The signed-in account's info (type, authorities in the tenant, usable tenants, the tenant's time zone, which the console then uses). */
export async function fetchUserInfo(): Promise<UserInfo> {
  const info = await userInfoInUsableTenant();
  setTimeZone(info.timeZone);
  return info;
}

async function userInfoInUsableTenant(): Promise<UserInfo> {
  try {
    return await call(authEndpoints.userInfo, { quiet: true });
  } catch (error) {
    if (!isForbidden(error)) {
      if (error instanceof ApiError && error.status !== 0) notifyError(error.message, error.code);
      throw error;
    }
    const original = getTenantId();
    const options = await call(tenantEndpoints.config, { raw: true, quiet: true }).catch(() => []);
    for (const option of options) {
      if (option.value === original) continue;
      setTenantId(option.value);
      try {
        return await call(authEndpoints.userInfo, { quiet: true });
      } catch (inner) {
        if (!isForbidden(inner)) throw inner;
      }
    }
    setTenantId(original);
    notifyError(ERRORS.FORBIDDEN.message[getLanguage()], 'forbidden');
    throw error;
  }
}
