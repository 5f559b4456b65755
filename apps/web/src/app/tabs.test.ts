import { MAX_TABS } from '@iot/contract';
import { describe, expect, it } from 'vitest';
import { closeAll, closeLeft, closeOthers, closeRight, closeTab, openTab } from './tabs';

describe('tab strip rules', () => {
  it('opens a tab once and keeps its place', () => {
    const tabs = openTab(openTab([], '/homepage'), '/lockInfo');
    expect(openTab(tabs, '/homepage')).toEqual(['/homepage', '/lockInfo']);
  });

  it('keeps at most MAX_TABS (8) and drops the oldest on the ninth', () => {
    expect(MAX_TABS).toBe(8);
    let tabs: string[] = [];
    for (let i = 1; i <= 9; i += 1) tabs = openTab(tabs, `/p${i}`);
    expect(tabs).toHaveLength(8);
    expect(tabs[0]).toBe('/p2');
    expect(tabs[7]).toBe('/p9');
  });

  it('closing the active tab goes to the next tab', () => {
    expect(closeTab(['/a', '/b', '/c'], '/b', '/b')).toEqual({ tabs: ['/a', '/c'], navigate: '/c' });
  });

  it('closing the last active tab goes to the previous one', () => {
    expect(closeTab(['/a', '/b', '/c'], '/c', '/c')).toEqual({ tabs: ['/a', '/b'], navigate: '/b' });
  });

  it('closing the only tab goes to /', () => {
    expect(closeTab(['/a'], '/a', '/a')).toEqual({ tabs: [], navigate: '/' });
  });

  it('closing an inactive tab stays', () => {
    expect(closeTab(['/a', '/b'], '/a', '/b')).toEqual({ tabs: ['/b'] });
    expect(closeTab(['/a'], '/x', '/a')).toEqual({ tabs: ['/a'] });
  });

  it('close others keeps one tab and goes there', () => {
    expect(closeOthers(['/a', '/b', '/c'], '/b', '/b')).toEqual({ tabs: ['/b'], navigate: undefined });
    expect(closeOthers(['/a', '/b', '/c'], '/a', '/c')).toEqual({ tabs: ['/a'], navigate: '/a' });
  });

  it('close all empties the strip and goes to /', () => {
    expect(closeAll()).toEqual({ tabs: [], navigate: '/' });
  });

  it('closes the tabs left or right of one, going to it when the active tab was closed', () => {
    expect(closeLeft(['/a', '/b', '/c'], '/b', '/c')).toEqual({ tabs: ['/b', '/c'], navigate: undefined });
    expect(closeLeft(['/a', '/b', '/c'], '/b', '/a')).toEqual({ tabs: ['/b', '/c'], navigate: '/b' });
    expect(closeRight(['/a', '/b', '/c'], '/b', '/a')).toEqual({ tabs: ['/a', '/b'], navigate: undefined });
    expect(closeRight(['/a', '/b', '/c'], '/a', '/c')).toEqual({ tabs: ['/a'], navigate: '/a' });
    expect(closeRight(['/a'], '/x', '/a')).toEqual({ tabs: ['/a'] });
  });
});
