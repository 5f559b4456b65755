/** Money in the console: amounts are fen (integers) on the wire, shown as yuan with two decimals. */

/** `¥12.34` of 1234 fen. */
export const yuan = (fen: number) => `¥${(fen / 100).toFixed(2)}`;

/** Fen of a yuan amount typed by a person (rounded to the fen). */
export const toFen = (value: number) => Math.round(value * 100);
