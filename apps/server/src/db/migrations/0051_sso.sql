CREATE TABLE "sso_links" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"claim" text NOT NULL,
	"value" text NOT NULL,
	"role_ids" integer[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sso_links" ADD CONSTRAINT "sso_links_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_rules" ADD CONSTRAINT "sso_rules_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sso_links_subject" ON "sso_links" USING btree ("issuer","subject");--> statement-breakpoint
CREATE INDEX "sso_rules_tenant" ON "sso_rules" USING btree ("tenant_id");--> statement-breakpoint
-- Row-level security of single sign-on (issue #28): a data centre's rules are its own (as roles); the
-- links follow the accounts a tenant transaction can see (as two_factors, 0046). Both are written by
-- the sign-in on the owner connection, the rules also by the rule routes in a tenant transaction.
ALTER TABLE sso_rules ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON sso_rules USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
--> statement-breakpoint
ALTER TABLE sso_links ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY account_visible ON sso_links USING (EXISTS (SELECT 1 FROM accounts WHERE accounts.id = sso_links.account_id)) WITH CHECK (EXISTS (SELECT 1 FROM accounts WHERE accounts.id = sso_links.account_id));
