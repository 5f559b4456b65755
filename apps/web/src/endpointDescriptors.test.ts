/**
 * The web build's endpoint descriptors (vite.endpoints.ts) stand for the contract's endpoints: each
 * keeps every field the console reads and the keyset marker, an endpoint shared by two tables stays one
 * object, a field the descriptors do not know or a schema read off an endpoint fails the build, and a
 * namespace import goes to its descriptors only when the code reads described members alone.
 */
import * as contract from '@iot/contract';
import { describe, expect, it } from 'vitest';
import { contractExports, rewriteContractImports } from '../vite.contract';
import { DESCRIBED_FIELDS, DESCRIPTORS, describedExports, describeEndpoint, descriptorModules, readsSchemaField } from '../vite.endpoints';
import { isKeysetList } from './components/keysetPaging';

describe('endpoint descriptors', () => {
  const names = contractExports();

  it('keep every field the console reads, and the cursor marker of keyset lists', () => {
    for (const endpoint of contract.apiEndpoints) {
      const descriptor = describeEndpoint(endpoint as unknown as Record<string, unknown>, `${endpoint.method} ${endpoint.path}`);
      for (const field of DESCRIBED_FIELDS) expect(descriptor[field], `${endpoint.path} ${field}`).toEqual(endpoint[field]);
      expect(isKeysetList(descriptor as unknown as contract.Endpoint), endpoint.path).toBe(isKeysetList(endpoint));
      expect(JSON.stringify(descriptor)).not.toMatch(/"(body|response|upload)"/);
    }
    expect(contract.apiEndpoints.some((endpoint) => isKeysetList(endpoint))).toBe(true);
  });

  it('refuse an endpoint field they do not know', () => {
    expect(() => describeEndpoint({ method: 'GET', path: '/x', kind: 'token', response: {}, retries: 3 }, 'x.list')).toThrow(/retries/);
  });

  it('keep an endpoint of two tables one object: the second module imports it from its home', () => {
    const declared = (name: string) => describedExports({ [name]: (contract as Record<string, unknown>)[name] }, names.get(name)?.file ?? '');
    const modules = descriptorModules([...declared('notificationInboxEndpoints'), ...declared('notificationEndpoints')]);
    const inboxFile = names.get('notificationInboxEndpoints')?.file as string;
    expect(modules.get(names.get('notificationEndpoints')?.file as string)).toContain(`from ${JSON.stringify(`${DESCRIPTORS}${inboxFile}`)}`);
    expect(modules.get(inboxFile)).not.toContain('import ');
  });

  it('find schema reads off endpoints, not endpoints named like a schema field', () => {
    expect(readsSchemaField('x(lockEndpoints.add.body.shape)', new Map([['lockEndpoints', contract.lockEndpoints]]))).toMatch(/^lockEndpoints\.add\.body/);
    expect(readsSchemaField('endpoint.response.parse(data)', new Map())).toBe('endpoint.response');
    expect(readsSchemaField('const s = endpoint.query?.shape; upload(firmwareEndpoints.upload)', new Map([['firmwareEndpoints', contract.firmwareEndpoints]]))).toBeUndefined();
  });

  it('point a namespace import at its descriptors only when the code reads described members alone', () => {
    const file = names.get('protocol')?.file as string;
    const described = new Map([[file, new Set(['OPEN_METHODS'])]]);
    const code = (use: string) => rewriteContractImports(`import { protocol } from '@iot/contract';\n${use}`, names, 'x.ts', described);
    expect(code('protocol.OPEN_METHODS.map(f);')).toContain(`import * as protocol from ${JSON.stringify(`${DESCRIPTORS}${file}`)};`);
    expect(code('protocol.OPEN_METHODS.map(f); protocol.parseUplink(x);')).toContain(`import * as protocol from ${JSON.stringify(file)};`);
    expect(code('use(protocol);')).toContain(`import * as protocol from ${JSON.stringify(file)};`);
  });
});
