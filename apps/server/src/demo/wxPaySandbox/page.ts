/** The sandbox's "pay" page: what the payer's phone would show after scanning, in both languages. */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const yuan = (fen: number) => (fen / 100).toFixed(2);

export interface PayPageInput {
  description: string;
  amountFen: number;
  state: string;
  expiresAt: Date;
  action: string;
}

/** The HTML page: order, amount and a confirm button while it can be paid; the outcome otherwise. */
export function payPage({ description, amountFen, state, expiresAt, action }: PayPageInput): string {
  const open = state === 'NOTPAY' && expiresAt.getTime() > Date.now();
  const outcome = state === 'SUCCESS' || state === 'REFUND'
    ? '<p id="sandbox-result" class="ok">支付成功 · Payment succeeded</p>'
    : '<p id="sandbox-result" class="off">订单已关闭或已过期 · The order is closed or has expired</p>';
  const form = `<form method="post" action="${escapeHtml(action)}">
    <button id="sandbox-confirm" type="submit">确认支付 · Confirm payment</button></form>`;
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>微信支付沙箱 · WeChat Pay sandbox</title><style>
body{font-family:system-ui,'Noto Sans CJK SC',sans-serif;background:#ededed;margin:0;display:flex;justify-content:center}
main{background:#fff;margin:40px 16px;padding:24px 28px;border-radius:8px;max-width:420px;width:100%;text-align:center}
.note{color:#888;font-size:13px}.amount{font-size:36px;font-weight:600;margin:12px 0}
button{background:#07c160;color:#fff;border:0;border-radius:6px;font-size:17px;padding:12px 0;width:100%;cursor:pointer}
.ok{color:#07c160;font-size:18px}.off{color:#d4380d}</style></head><body><main>
<p class="note">微信支付沙箱（演示，不会扣款）· WeChat Pay sandbox (demo, nothing is charged)</p>
<h1 style="font-size:18px">${escapeHtml(description)}</h1>
<div class="amount">¥ ${yuan(amountFen)}</div>
${open ? form : outcome}
</main></body></html>`;
}
