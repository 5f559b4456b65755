/** Number and time formatting of the air switch page. */
import dayjs from 'dayjs';

/** `YYYY-MM-DD HH:mm:ss` in the browser's zone, or — for none. */
export const formatTime = (iso: string | null) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : '—');

/** A reading with `digits` decimals, or — when not reported. */
export const reading = (value: number | null, digits = 1) => (value === null ? '—' : value.toFixed(digits));

/** The operator's IANA time zone (analysis days are its days). */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'Asia/Shanghai';
