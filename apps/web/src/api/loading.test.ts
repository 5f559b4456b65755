import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLoadingTracker } from './loading';

describe('loading overlay tracker', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows on the first request and closes 300 ms after the last one ends', () => {
    const tracker = createLoadingTracker(300);
    tracker.begin();
    tracker.begin();
    expect(tracker.isVisible()).toBe(true);
    tracker.end();
    vi.advanceTimersByTime(1000);
    expect(tracker.isVisible()).toBe(true);
    tracker.end();
    vi.advanceTimersByTime(299);
    expect(tracker.isVisible()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(tracker.isVisible()).toBe(false);
  });

  it('a request starting within the debounce keeps it open', () => {
    const tracker = createLoadingTracker(300);
    tracker.begin();
    tracker.end();
    vi.advanceTimersByTime(200);
    tracker.begin();
    vi.advanceTimersByTime(500);
    expect(tracker.isVisible()).toBe(true);
    tracker.end();
    vi.advanceTimersByTime(300);
    expect(tracker.isVisible()).toBe(false);
  });
});
