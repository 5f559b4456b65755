/** The sign-out a person asks for (header, no-page screen): the server revokes the token, then the local sign-out. */
import { authEndpoints } from '@iot/contract';
import { call } from '../api/client';
import { signOutLocally } from './signOut';

/** Revokes the token on the server (best effort), then signs out locally (the header's logout, the no-page screen). */
export async function signOut(): Promise<void> {
  try {
    await call(authEndpoints.signOut, { quiet: true });
  } catch {
    /* signing out locally regardless */
  } finally {
    signOutLocally();
  }
}
