/**
 * Browser session (spec §3): token, tenantId, username, userInfo and language flag in localStorage.
 * Signed in means a stored username exists. Authorities used for the menu come from the server
 * (`GET /oauth/userInfo`, see useUserInfo), the stored userInfo is only a cache.
 */
import { DEFAULT_TENANT_ID, LANGUAGES, type Language, type UserInfo } from '@iot/contract';

const KEY = { token: 'token', tenantId: 'tenantId', username: 'username', userInfo: 'userInfo', language: 'language' } as const;

const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function write(key: string, value: string | null): void {
  if (value === null) localStorage.removeItem(key);
  else localStorage.setItem(key, value);
  emit();
}

/** Subscribes to session changes; returns the unsubscribe function. */
export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Stored access token, or undefined. Stored as the spec's `{ success, data: { access_token } }`. */
export function getToken(): string | undefined {
  const raw = read(KEY.token);
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(raw) as { data?: { access_token?: string } };
    return parsed.data?.access_token ?? undefined;
  } catch {
    return raw;
  }
}

/** Stores (or with undefined removes) the access token. */
export function setToken(accessToken: string | undefined): void {
  write(KEY.token, accessToken ? JSON.stringify({ success: true, data: { access_token: accessToken } }) : null);
}

/** Stored tenant id; DEFAULT_TENANT_ID when none is stored. */
export function getTenantId(): number {
  const value = Number(read(KEY.tenantId));
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_TENANT_ID;
}

/** Stores the tenant id (data centre). */
export function setTenantId(tenantId: number): void {
  write(KEY.tenantId, String(tenantId));
}

/** Stored username; its presence means "signed in". */
export function getUsername(): string | null {
  return read(KEY.username);
}

/** Stores username and user info after sign-in. */
export function setSignedIn(info: UserInfo): void {
  localStorage.setItem(KEY.userInfo, JSON.stringify(info));
  write(KEY.username, info.username);
}

/** Removes username, token and user info (tenant and language stay). */
export function clearSession(): void {
  localStorage.removeItem(KEY.token);
  localStorage.removeItem(KEY.userInfo);
  write(KEY.username, null);
}

/** Stored UI language; Chinese by default. */
export function getLanguage(): Language {
  const value = read(KEY.language);
  return (LANGUAGES as readonly string[]).includes(value ?? '') ? (value as Language) : 'zh-CN';
}

/** Stores the UI language flag. */
export function setLanguage(language: Language): void {
  write(KEY.language, language);
}
