/**
 * Tickets of the console's live stream (modules/live/tickets.ts), which alone writes them.
 * A browser's EventSource cannot send the token header, so it opens GET /iot/v1/events?ticket=...
 * with a ticket it asked for a moment before. A row binds the ticket to the account, the sign-in
 * (session family) and the data centre; only the ticket's SHA-256 is stored, and redeeming deletes
 * the row (single use, on whichever instance the stream lands). Row-level security like every table
 * with a tenant column, though only the owner connection reads it.
 */
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts, tenants } from './schema.js';

export const liveTickets = pgTable('live_tickets', {
  /** SHA-256 (hex) of the ticket. */
  ticketHash: text('ticket_hash').primaryKey(),
  accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  /** The sign-in (sessions.family) the stream belongs to: its revocation closes the stream. */
  family: text('family').notNull(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
}, (t) => [index('live_tickets_expires').on(t.expiresAt)]);
