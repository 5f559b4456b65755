/**
 * The localStorage keys of the browser session (session/session.ts reads and writes them), in a
 * module without imports.
 */
export const SESSION_KEYS = { token: 'token', tenantId: 'tenantId', username: 'username', userInfo: 'userInfo', language: 'language' } as const;
