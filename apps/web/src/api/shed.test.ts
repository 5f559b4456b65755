import { describe, expect, it } from 'vitest';
import { resendWhileShed, SHED_WAIT_MAX_MS, shedWaitMs } from './shed';

const answer = (status: number, retryAfter?: string) => new Response('{}', { status, headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter } });

describe('shed requests', () => {
  it('knows a shed answer by 503 with Retry-After, and caps the wait', () => {
    expect(shedWaitMs(answer(503, '0'))).toBe(0);
    expect(shedWaitMs(answer(503, '2'))).toBe(2000);
    expect(shedWaitMs(answer(503, '60'))).toBe(SHED_WAIT_MAX_MS);
    expect(shedWaitMs(answer(503, 'Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(SHED_WAIT_MAX_MS);
    expect(shedWaitMs(answer(503))).toBeUndefined();
    expect(shedWaitMs(answer(429, '1'))).toBeUndefined();
    expect(shedWaitMs(answer(200))).toBeUndefined();
  });

  it('sends again while shed, at most twice, and answers the last response', async () => {
    const sent: number[] = [];
    const twiceShed = [answer(503, '0'), answer(503, '0'), answer(200)];
    expect((await resendWhileShed(async () => { sent.push(1); return twiceShed.shift() as Response; })).status).toBe(200);
    expect(sent).toHaveLength(3);
    let calls = 0;
    expect((await resendWhileShed(async () => { calls++; return answer(503, '0'); })).status).toBe(503);
    expect(calls).toBe(3);
    calls = 0;
    expect((await resendWhileShed(async () => { calls++; return answer(503); })).status).toBe(503);
    expect(calls).toBe(1);
  });

  it('stops waiting when the call is aborted', async () => {
    const controller = new AbortController();
    const pending = resendWhileShed(async () => answer(503, '5'), controller.signal);
    controller.abort(new Error('left the page'));
    await expect(pending).rejects.toThrow('left the page');
  });
});
