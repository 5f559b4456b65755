/** Credential pages: sync-state colours, list queries, and every credential string in both languages. */
import { SYNC_STATES } from '@iot/contract';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en-US/credential.json';
import zh from '../../locales/zh-CN/credential.json';
import { listQuery } from '../../components/credential/shared';
import { syncColor, syncFailed } from '../../components/credential/SyncStateBadge';

/** Dotted key paths of a nested locale object. */
const keys = (value: object, prefix = ''): string[] => Object.entries(value).flatMap(([key, inner]) =>
  (typeof inner === 'object' && inner !== null ? keys(inner, `${prefix}${key}.`) : [`${prefix}${key}`]));

describe('credential pages', () => {
  it('colours sync states: in progress blue, failed red, normal green', () => {
    expect(SYNC_STATES.map(syncColor)).toEqual(['processing', 'error', 'success', 'processing', 'error', 'processing', 'error']);
    expect(SYNC_STATES.filter(syncFailed)).toEqual(['add_failed', 'modify_failed', 'delete_failed']);
  });

  it('maps filters to the list query with the page lock', () => {
    expect(listQuery({ syncState: 'all', kind: 'tempPassword', keyword: '  ann ' }, 7)).toEqual({ kind: 'tempPassword', keyword: 'ann', lockId: 7 });
    expect(listQuery({ keyword: '   ' }, undefined)).toEqual({ keyword: undefined, lockId: undefined });
  });

  it('has every string in zh-CN and en-US, with a label for each sync state', () => {
    expect(keys(en).sort()).toEqual(keys(zh).sort());
    for (const state of SYNC_STATES) expect(zh.syncStates[state]).toBeTruthy();
  });
});
