import { LOGIN_ROUTE, WEB_BASE_PATH } from '@iot/contract';
import { describe, expect, it } from 'vitest';
import { BASE_PATH, pageToLoad, SIGN_IN_ADDRESS } from './consoleEarly';

const storage = (username: string | null) => () => ({ getItem: (key: string) => (key === 'username' ? username : null) });

describe('the console and the page requested first thing', () => {
  it('name the contract\'s base path and sign-in address', () => {
    expect(BASE_PATH).toBe(WEB_BASE_PATH);
    expect(SIGN_IN_ADDRESS).toBe(`${WEB_BASE_PATH}${LOGIN_ROUTE.path}`);
  });
  it('are asked for signed in, away from the sign-in page', () => {
    expect(pageToLoad('/api/lockInfo', storage('admin'))).toBe('/lockInfo');
    expect(pageToLoad('/api/', storage('admin'))).toBe('frame');
    expect(pageToLoad('/api/toString', storage('admin'))).toBe('frame');
    expect(pageToLoad('/api/homepage', storage(null))).toBeUndefined();
    expect(pageToLoad(SIGN_IN_ADDRESS, storage('admin'))).toBeUndefined();
    expect(pageToLoad('/api/lockInfo', () => { throw new Error('SecurityError'); })).toBeUndefined();
  });
});
