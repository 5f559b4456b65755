/** Number and time formatting of the air switch page. */
import { formatTime as formatZoned } from '../../lib/timeZone';

/** `YYYY-MM-DD HH:mm:ss` in the data centre's zone, or — for none. */
export const formatTime = (iso: string | null) => formatZoned(iso);

/** A reading with `digits` decimals, or — when not reported. */
export const reading = (value: number | null, digits = 1) => (value === null ? '—' : value.toFixed(digits));
