/** React hooks over the session store and the server's user info. */
import { ACCOUNT_TYPE_ADMIN, type Authority, type Language, type UserInfo } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchUserInfo } from '../api/userInfo';
import { getTenantId, getUsername, subscribeSession } from '../session/session';

/** Query key of `GET /oauth/userInfo`. */
export const USER_INFO_KEY = ['userInfo'] as const;

/** The stored username (null when signed out), re-rendering on change. */
export function useUsername(): string | null {
  return useSyncExternalStore(subscribeSession, getUsername);
}

/** The stored tenant id, re-rendering on change. */
export function useTenantId(): number {
  return useSyncExternalStore(subscribeSession, getTenantId);
}

/** The current UI language. */
export function useLanguage(): Language {
  const { i18n } = useTranslation();
  return i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
}

/** User info from the server (source of truth for type and authorities), fetched while signed in. */
export function useUserInfo() {
  const username = useUsername();
  return useQuery({
    queryKey: USER_INFO_KEY,
    queryFn: fetchUserInfo,
    enabled: username !== null,
    staleTime: 5 * 60_000,
  });
}

/** True when the user may open a page needing `authority` (administrators may open all). */
export function mayOpen(info: UserInfo, authority: Authority | undefined): boolean {
  return info.type === ACCOUNT_TYPE_ADMIN || authority === undefined || info.authorities.includes(authority);
}

/** True when the signed-in user holds `authority` in the current data centre (administrators hold every key). */
export function useAllowed(authority: Authority): boolean {
  const { data } = useUserInfo();
  return data ? mayOpen(data, authority) : false;
}
