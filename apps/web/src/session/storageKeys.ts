/**
 * The localStorage keys of the browser session (session/session.ts reads and writes them). A module
 * without imports, so the entry's first module (app/consoleEarly.ts) can read the session before
 * anything else of the app is evaluated.
 */
export const SESSION_KEYS = { token: 'token', tenantId: 'tenantId', username: 'username', userInfo: 'userInfo', language: 'language' } as const;
