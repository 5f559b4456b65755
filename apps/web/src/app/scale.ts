/**
 * Layout scaling (spec §9): window width clamped to [1366, 1920] px divided by 24, exposed as the CSS
 * variable `--rem` (not the root font size, so antd's own sizes are untouched).
 */
import { LAYOUT_SCALE } from '@iot/contract';

/** The scale unit in px for a window width. */
export function scaleUnit(width: number): number {
  const clamped = Math.min(LAYOUT_SCALE.maxWidthPx, Math.max(LAYOUT_SCALE.minWidthPx, width));
  return clamped / LAYOUT_SCALE.divisor;
}

/** Sets `--rem` now and on every resize. */
export function installScale(): void {
  const apply = () => document.documentElement.style.setProperty('--rem', `${scaleUnit(window.innerWidth)}px`);
  apply();
  window.addEventListener('resize', apply);
}
