CREATE TABLE "two_factors" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"sealed_secret" text NOT NULL,
	"enabled_at" timestamp with time zone,
	"last_time_step" bigint,
	"recovery_code_hashes" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "audit_log_failed_sign_in_address";--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "requires_two_factor" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "two_factors" ADD CONSTRAINT "two_factors_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_failed_sign_in_address" ON "audit_log" USING btree ("client_ip","created_at") WHERE "audit_log"."action" = 'sign-in' and "audit_log"."result" in ('INVALID_CREDENTIALS', 'TWO_FACTOR_INVALID');
--> statement-breakpoint
-- Row-level security for two-factor rows (issue #28): a tenant transaction reaches the rows of the
-- accounts it can see, the accounts table's own policy (0003_account_rls.sql) deciding.
ALTER TABLE two_factors ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY account_visible ON two_factors USING (EXISTS (SELECT 1 FROM accounts WHERE accounts.id = two_factors.account_id)) WITH CHECK (EXISTS (SELECT 1 FROM accounts WHERE accounts.id = two_factors.account_id));
