/**
 * Sign-in endpoints (spec §7 "Auth").
 * The browser encrypts the password with RSA-OAEP SHA-256 under the key from /oauth/key and sends it
 * base64-encoded; the server never sees a password in clear on the wire.
 */
import { z } from 'zod';
import { text } from './input.js';
import { AUTHORITIES } from '../authorities.js';
import { endpoint } from './endpoint.js';
import { FIRST_LOAD_ROUTES } from './firstLoad.js';
import { twoFactorChallenge } from './twoFactor.js';

export const publicKeyResponse = z.object({ publicKey: z.string(), keyId: z.string() });

export const captchaResponse = z.object({
  checkCodeId: z.string(),
  /** SVG image of the captcha. */
  image: z.string(),
  /** False when the server runs with AUTH_CAPTCHA=off; the field may then be left empty. */
  required: z.boolean(),
});

export const captchaMatchBody = z.strictObject({ checkCodeId: text().min(1).max(64), checkCode: text().min(1).max(10) });

export const signInBody = z.strictObject({
  username: text().trim().min(1).max(64),
  /** base64(RSA-OAEP-SHA-256(password)). */
  password: text().min(1).max(1024),
  keyId: text().min(1).max(64),
  checkCode: text().max(10).default(''),
  checkCodeId: text().max(64).default(''),
});

export const tokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  /** Idle lifetime, s. */
  expires_in: z.number().int(),
});

export const userInfoResponse = z.object({
  username: z.string(),
  /** 0 administrator, 1 operator (spec §6). */
  type: z.number().int(),
  authorities: z.array(z.enum(AUTHORITIES)),
  tenants: z.array(z.object({ id: z.number().int(), name: z.string() })),
  /** IANA zone of the request's data centre: every time the console shows, and its date pickers, are in it. */
  timeZone: z.string(),
});
export type UserInfo = z.infer<typeof userInfoResponse>;

export const authEndpoints = {
  publicKey: endpoint({ ...FIRST_LOAD_ROUTES.auth.publicKey, response: publicKeyResponse }),
  captcha: endpoint({ ...FIRST_LOAD_ROUTES.auth.captcha, response: captchaResponse }),
  captchaMatch: endpoint({
    method: 'POST', path: '/oauth/checkCode/match', access: 'public', kind: 'tokenless',
    body: captchaMatchBody, response: z.object({ match: z.boolean() }),
  }),
  /** The token, or (two-factor on) a challenge for POST /oauth/token/twoFactor. */
  signIn: endpoint({
    ...FIRST_LOAD_ROUTES.auth.signIn, body: signInBody, response: z.union([tokenResponse, twoFactorChallenge]),
  }),
  userInfo: endpoint({ ...FIRST_LOAD_ROUTES.auth.userInfo, response: userInfoResponse }),
  signOut: endpoint({ method: 'POST', path: '/oauth/logout', access: 'authenticated', kind: 'token', duringEnrolment: true, response: z.null() }),
};
