/**
 * E-mail to one account: the data centre's sender is its first enabled
 * e-mail channel (lowest id); a message to an account goes through that channel's SMTP settings and
 * login, to the account's address instead of the channel's own recipients, under the egress policy
 * (providers/email.ts). Used for recipients' and escalation deliveries (worker.ts) and for the code
 * that verifies an account's address (modules/account/contact.ts).
 */
import { sql } from 'drizzle-orm';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import type { EgressPolicy } from '../subscription/egress.js';
import { openChannel } from './channels.js';
import { type NotificationMessage, type OpenChannel, PROVIDERS } from './providers/index.js';

/** SQL: the id of the data centre's e-mail sender, in a tenant transaction (row-level security). */
const EMAIL_SENDER_SQL = sql`(select min(id) from notification_channels where kind = 'email' and enabled)`;

/** The data centre's e-mail sender opened for sending (secrets in clear, never logged); null without an enabled e-mail channel. */
export async function openEmailSender(tx: Tx, box: SecretBox): Promise<OpenChannel | null> {
  const [row] = rowsOf<{ id: number | string | null }>(await tx.execute(sql`select ${EMAIL_SENDER_SQL} as id`));
  return row?.id == null ? null : openChannel(tx, Number(row.id), box);
}

/** Sends `message` through e-mail channel `sender` to `address` only; never throws (`{ sent: false, error }`). */
export function sendMailTo(sender: OpenChannel, address: string, message: NotificationMessage, policy: EgressPolicy) {
  if (!sender.email) return Promise.resolve({ sent: false, status: null, latencyMs: 0, error: 'SMTP settings is not set' });
  return PROVIDERS.email({ ...sender, email: { ...sender.email, to: [address] } }, message, policy);
}
