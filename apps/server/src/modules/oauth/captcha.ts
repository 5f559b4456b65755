/**
 * Image captcha (svg-captcha). The answer is stored as a SHA-256 digest, case-insensitive, valid for
 * 5 minutes and consumed by the first sign-in that uses it.
 */
import { createHash, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import svgCaptcha from 'svg-captcha';
import type { Db } from '../../db/client.js';
import { captchas } from '../../db/schema.js';

const TTL_S = 300;
const digest = (answer: string) => createHash('sha256').update(answer.trim().toLowerCase()).digest('hex');

/** Creates a captcha: `{ checkCodeId, image (SVG markup) }`. */
export async function createCaptcha(db: Db): Promise<{ checkCodeId: string; image: string }> {
  const { text, data } = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1iIlL', color: true, background: '#f0f5ff' });
  const id = randomUUID();
  await db.delete(captchas).where(lt(captchas.expiresAt, sql`now()`));
  await db.insert(captchas).values({ id, answerHash: digest(text), expiresAt: sql`now() + make_interval(secs => ${TTL_S})` });
  return { checkCodeId: id, image: data };
}

/** True when `answer` matches an unexpired, unused captcha; does not consume it. */
export async function matchCaptcha(db: Db, id: string, answer: string): Promise<boolean> {
  const [row] = await db.select({ answerHash: captchas.answerHash }).from(captchas)
    .where(and(eq(captchas.id, id), isNull(captchas.usedAt), gt(captchas.expiresAt, sql`now()`)));
  return row?.answerHash === digest(answer);
}

/** Consumes the captcha and says whether `answer` was right; a captcha works for one attempt only. */
export async function consumeCaptcha(db: Db, id: string, answer: string): Promise<boolean> {
  const [row] = await db.update(captchas).set({ usedAt: sql`now()` })
    .where(and(eq(captchas.id, id), isNull(captchas.usedAt), gt(captchas.expiresAt, sql`now()`)))
    .returning({ answerHash: captchas.answerHash });
  return row?.answerHash === digest(answer);
}
