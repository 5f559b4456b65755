/**
 * The entry chunk ships without zod: the build fails when a zod module is rendered into an entry
 * (vite.chunks.ts), and the schema-free first-load routes the entry calls are the very routes of the
 * contract's endpoint tables (api/firstLoad.ts).
 */
import { authEndpoints, FIRST_LOAD_ROUTES, ssoEndpoints, tenantEndpoints, twoFactorEndpoints } from '@iot/contract';
import { describe, expect, it } from 'vitest';
import { forbiddenEntryModule } from '../vite.chunks';

describe('entry weight', () => {
  const zod = '/repo/node_modules/zod/v4/classic/schemas.js';

  it('names a zod module rendered into an entry chunk, and only there', () => {
    expect(forbiddenEntryModule({ isEntry: true, modules: { '/repo/apps/web/src/main.tsx': { renderedLength: 10 }, [zod]: { renderedLength: 5 } } })).toBe(zod);
    expect(forbiddenEntryModule({ isEntry: true, modules: { [zod]: { renderedLength: 0 } } })).toBeUndefined();
    expect(forbiddenEntryModule({ isEntry: false, modules: { [zod]: { renderedLength: 5 } } })).toBeUndefined();
  });

  it('keeps each first-load route identical to its endpoint', () => {
    const tables = { auth: authEndpoints, tenant: tenantEndpoints, twoFactor: twoFactorEndpoints, sso: ssoEndpoints } as Record<string, Record<string, object>>;
    for (const [table, routes] of Object.entries(FIRST_LOAD_ROUTES)) {
      for (const [name, route] of Object.entries(routes)) expect(tables[table]?.[name], `${table}.${name}`).toMatchObject(route);
    }
  });
});
