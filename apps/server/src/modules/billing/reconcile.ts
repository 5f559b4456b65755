/**
 * Reconciliation: notifications are not guaranteed, so orders still NOTPAY/USERPAYING
 * and refunds still PROCESSING are asked about at the payment provider periodically; an order past its expiry
 * is closed there and here, at each row's due time (reconcile_after). Safe on several instances: each run claims rows by moving their
 * `reconcile_after` forward under FOR UPDATE SKIP LOCKED, so no two instances ask about one row at
 * once. `stop()` (graceful shutdown) waits for the run in progress and starts no other.
 */
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/client.js';
import { orders, refunds } from '../../db/schema.js';
import { rowsOf } from '../../db/rows.js';
import { insertAudit } from '../auditLog/repo.js';
import { applyPayment, applyRefund, orderChanged } from './apply.js';
import type { Payments } from './payments.js';
import type { ProviderRefund } from './provider.js';
import { startWorkerLoop } from '../../jobs/loop.js';
import type { StartedJob } from '../../jobs/plugin.js';

/** Rows claimed per run and kind. */
const BATCH = 20;
/** A claimed row is asked about again after this long, s. */
const RECHECK_S = 60;

/** Settles a refund from the provider's answer to the refund call: the resource applied, or CLOSED when refused. */
export async function settleRefundAnswer(database: Database, payments: Payments, outTradeNo: string, outRefundNo: string, answer: ProviderRefund | 'refused' | 'unknown'): Promise<void> {
  if (answer === 'unknown') return; // reconciliation asks later
  await database.transaction(async (tx) => {
    if (answer === 'refused') {
      await tx.update(refunds).set({ status: 'CLOSED' }).where(and(eq(refunds.outRefundNo, outRefundNo), eq(refunds.status, 'PROCESSING')));
      return;
    }
    await applyRefund(tx, payments.provider.auditName, { ...answer, outTradeNo });
  });
}

async function claim(tx: Executor, table: typeof orders | typeof refunds, open: ReturnType<typeof sql>) {
  const ids = tx.select({ id: table.id }).from(table).where(and(open, lte(table.reconcileAfter, sql`now()`)))
    .orderBy(table.reconcileAfter).limit(BATCH).for('update', { skipLocked: true });
  return tx.update(table).set({ reconcileAfter: sql`now() + make_interval(secs => ${RECHECK_S})` }).where(inArray(table.id, ids)).returning();
}

/** One pass over due open orders and processing refunds; returns how many rows changed. */
export async function reconcileOnce(database: Database, payments: Payments, log?: FastifyBaseLogger): Promise<number> {
  const due = await database.transaction((tx) => claim(tx, orders, sql`${orders.tradeState} in ('NOTPAY', 'USERPAYING')`)) as (typeof orders.$inferSelect)[];
  const dueRefunds = await database.transaction((tx) => claim(tx, refunds, sql`${refunds.status} = 'PROCESSING'`)) as (typeof refunds.$inferSelect)[];
  let changed = 0;
  for (const order of due) {
    try {
      const found = await payments.provider.queryOrder(order.outTradeNo);
      if (found && found.tradeState !== 'NOTPAY' && found.tradeState !== 'USERPAYING') {
        if ((await database.transaction((tx) => applyPayment(tx, payments.provider.auditName, found))) === 'applied') changed += 1;
      } else if (order.expiresAt.getTime() <= Date.now()) {
        // Paid at the provider after the query: leave it open, the next pass applies the payment.
        if (found && (await payments.provider.closeOrder(order.outTradeNo)) === 'alreadyPaid') continue;
        const closed = await database.transaction(async (tx) => {
          const rows = await tx.update(orders).set({ tradeState: 'CLOSED', codeUrl: null, updatedAt: sql`now()` })
            .where(and(eq(orders.id, order.id), inArray(orders.tradeState, ['NOTPAY', 'USERPAYING']))).returning({ id: orders.id });
          if (rows.length) await orderChanged(tx, order, 'CLOSED');
          if (rows.length) await insertAudit(tx, { tenantId: order.tenantId, accountId: null, username: payments.provider.auditName, action: 'wxpay-closed', target: order.outTradeNo, result: 'success', clientIp: '' });
          return rows.length;
        });
        changed += closed;
      }
    } catch (error) {
      log?.warn({ outTradeNo: order.outTradeNo, reason: error instanceof Error ? error.message : 'unknown' }, 'reconciliation of an order failed; retried later');
    }
  }
  for (const refund of dueRefunds) {
    try {
      const [order] = await database.system.select({ outTradeNo: orders.outTradeNo }).from(orders).where(eq(orders.id, refund.orderId));
      const found = await payments.provider.queryRefund(refund.outRefundNo);
      if ((await database.transaction((tx) => applyRefund(tx, payments.provider.auditName, { ...found, outTradeNo: order?.outTradeNo ?? found.outTradeNo }))) === 'applied') changed += 1;
    } catch (error) {
      log?.warn({ outRefundNo: refund.outRefundNo, reason: error instanceof Error ? error.message : 'unknown' }, 'reconciliation of a refund failed; retried later');
    }
  }
  return changed;
}

/** ms until the first open order or processing refund is due to be asked about; undefined when none is open. */
async function nextDueMs(database: Database): Promise<number | undefined> {
  const [row] = rowsOf<{ ms: number | null }>(await database.system.execute(sql`select extract(epoch from least(
    (select min(reconcile_after) from orders where trade_state in ('NOTPAY', 'USERPAYING')),
    (select min(reconcile_after) from refunds where status = 'PROCESSING')) - now()) * 1000 as ms`));
  return row?.ms == null ? undefined : Number(row.ms);
}

/**
 * Runs reconcileOnce when an open order or refund is due (reconcile_after), and besides at a safety
 * sweep every `periodMs` (0: never runs); it sleeps otherwise (jobs/loop.ts). Returns how to stop it.
 */
export function startReconciler(database: Database, payments: Payments | undefined, periodMs: number, log: FastifyBaseLogger): StartedJob {
  if (!payments || periodMs <= 0) return { stop: async () => {} };
  const loop = startWorkerLoop({
    name: 'payment reconciliation', safetyMs: periodMs, firstRunMs: periodMs, minDelayMs: 1000, log,
    async run() {
      await reconcileOnce(database, payments, log);
      return nextDueMs(database);
    },
  });
  return { stop: () => loop.close() };
}
