/**
 * Whether the signed-in user may make a call, from the contract's endpoint: one of its
 * authority keys, and for a platform-wide object (`scope: 'platform'`, e.g. packages) a platform
 * administrator. The web hides the controls of calls the server would refuse; the server decides.
 */
import { ACCOUNT_TYPE_ADMIN, accessKeys, type Endpoint, type UserInfo } from '@iot/contract';
import { mayOpen, useUserInfo } from './useSession';

/** True when `info` may call `endpoint`. */
export function mayCall(info: UserInfo, endpoint: Pick<Endpoint, 'access' | 'scope'>): boolean {
  if (endpoint.scope === 'platform' && info.type !== ACCOUNT_TYPE_ADMIN) return false;
  const keys = accessKeys(endpoint.access);
  return keys.length === 0 || keys.some((key) => mayOpen(info, key));
}

/** mayCall for the signed-in user (false until the user info is known). */
export function useMayCall(endpoint: Pick<Endpoint, 'access' | 'scope'>): boolean {
  const { data } = useUserInfo();
  return data ? mayCall(data, endpoint) : false;
}
