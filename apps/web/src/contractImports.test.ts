/**
 * vite.contract.ts points the web's `@iot/contract` imports at the declaring modules: its map must give,
 * for every value the index exports, a module exporting the very same value, and the rewrite must keep
 * local names and refuse names the contract does not export.
 */
import * as contract from '@iot/contract';
import { describe, expect, it } from 'vitest';
import { contractExports, rewriteContractImports } from '../vite.contract';

describe('contract imports rewrite', () => {
  const names = contractExports();

  it('maps every value of the index to a module exporting the same value', async () => {
    for (const [name, value] of Object.entries(contract)) {
      const entry = names.get(name);
      expect(entry, name).toBeDefined();
      const module = (await import(/* @vite-ignore */ entry?.file ?? '')) as Record<string, unknown>;
      if (entry?.namespace) expect(Object.keys(module).sort(), name).toEqual(Object.keys(value as object).sort());
      else expect(module[name], name).toBe(value);
    }
  });

  it('rewrites named and namespace imports, keeping local names', () => {
    const code = rewriteContractImports('import { lockEndpoints, ROUTES as routes, protocol } from "@iot/contract";\nuse();', names, 'x.ts');
    expect(code).toContain(`import { lockEndpoints as lockEndpoints } from ${JSON.stringify(names.get('lockEndpoints')?.file)};`);
    expect(code).toContain(`import { ROUTES as routes } from ${JSON.stringify(names.get('ROUTES')?.file)};`);
    expect(code).toMatch(/import \* as protocol from ".*protocol\/index\.ts";/);
    expect(code).toContain('use();');
  });

  it('refuses a name the contract does not export', () => {
    expect(() => rewriteContractImports("import { noSuchThing } from '@iot/contract';", names, 'x.ts')).toThrow(/noSuchThing/);
  });
});
