/**
 * The sign-out a person asks for (header, no-page screen): the server revokes the token, then the local
 * sign-out. A single sign-on session also ends at the provider: its end-session URL is read
 * before the token is revoked, and the browser goes there after the local sign-out (the provider sends
 * it back to the sign-in page).
 */
import { authEndpoints, ssoEndpoints } from '@iot/contract';
import { call } from '../api/client';
import { signOutLocally } from './signOut';

/** Revokes the token on the server (best effort), then signs out locally (the header's logout, the no-page screen). */
export async function signOut(): Promise<void> {
  let providerLogout: string | null = null;
  try {
    providerLogout = (await call(ssoEndpoints.logoutUrl, { quiet: true })).url;
  } catch {
    /* no provider sign-out then */
  }
  try {
    await call(authEndpoints.signOut, { quiet: true });
  } catch {
    /* signing out locally regardless */
  } finally {
    signOutLocally();
    if (providerLogout) window.location.assign(providerLogout);
  }
}
