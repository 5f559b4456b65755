/**
 * IMEI check digits (3GPP TS 23.003, Luhn). Without zod: the console's lock form checks an IMEI as it
 * is typed on the lock list's first load; api/lock.ts's request schema checks it again.
 */

/** True when `imei` is 15 digits whose last one is the Luhn check digit of the first 14 (3GPP TS 23.003). */
export function imeiLuhnValid(imei: string): boolean {
  if (!/^\d{15}$/.test(imei)) return false;
  let sum = 0;
  for (let index = 0; index < 15; index++) {
    let digit = imei.charCodeAt(index) - 48;
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The IMEI of a 14-digit `body`: the body and its Luhn check digit (3GPP TS 23.003); throws on any other body. */
export function imeiWithCheckDigit(body: string): string {
  for (let check = 0; check < 10; check++) if (imeiLuhnValid(`${body}${check}`)) return `${body}${check}`;
  throw new Error(`an IMEI body is 14 digits: ${body}`);
}
