/**
 * Signing secrets of customer codes (customer_keys): generated here, shown once, kept sealed with the
 * SecretBox. Rotation: a new secret becomes current and every secret still signing keeps signing
 * until now + grace (never longer than it already would), so a receiver can switch without a gap.
 */
import { sql } from 'drizzle-orm';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Executor, Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { newSecret } from './signing.js';

/** Issues a new secret for customer code `customerCodeId`; returns it (the only time it is readable) and when the previous ones stop signing. */
export async function rotateKey(tx: Tx, tenantId: number, customerCodeId: number, graceMinutes: number, box: SecretBox): Promise<{ secret: string; hint: string; previousValidUntil: string | null }> {
  const previous = rowsOf<{ valid_until: string | Date | null }>(await tx.execute(sql`
    update customer_keys set valid_until = least(coalesce(valid_until, 'infinity'), now() + make_interval(mins => ${graceMinutes}))
    where customer_code_id = ${customerCodeId} and (valid_until is null or valid_until > now())
    returning valid_until`));
  const secret = newSecret();
  const hint = secret.slice(-4);
  await tx.execute(sql`insert into customer_keys (tenant_id, customer_code_id, secret_sealed, hint) values (${tenantId}, ${customerCodeId}, ${box.seal(secret)}, ${hint})`);
  const until = previous.map((row) => row.valid_until).filter((value) => value !== null).map((value) => new Date(value as string).getTime());
  return { secret, hint, previousValidUntil: until.length ? new Date(Math.max(...until)).toISOString() : null };
}

/** The secrets that sign now, newest first, per customer code id. */
export async function signingSecrets(db: Executor, customerCodeIds: readonly number[], box: SecretBox): Promise<Map<number, string[]>> {
  const rows = rowsOf<{ customer_code_id: number | string; secret_sealed: string }>(await db.execute(sql`
    select customer_code_id, secret_sealed from customer_keys
    where customer_code_id = any(${sql.param([...customerCodeIds])}::bigint[]) and (valid_until is null or valid_until > now())
    order by id desc`));
  const secrets = new Map<number, string[]>();
  for (const row of rows) {
    const id = Number(row.customer_code_id);
    secrets.set(id, [...(secrets.get(id) ?? []), box.open(row.secret_sealed)]);
  }
  return secrets;
}
