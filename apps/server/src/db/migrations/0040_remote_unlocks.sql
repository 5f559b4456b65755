CREATE TABLE "remote_unlocks" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"reason" text NOT NULL,
	"requested_by" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approve_by" timestamp with time zone,
	"approved_by" text,
	"approved_at" timestamp with time zone,
	"command_id" bigint
);
--> statement-breakpoint
ALTER TABLE "locks" ADD COLUMN "high_security" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "remote_unlocks" ADD CONSTRAINT "remote_unlocks_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "remote_unlocks_lock" ON "remote_unlocks" USING btree ("lock_id","id");--> statement-breakpoint
CREATE INDEX "remote_unlocks_tenant" ON "remote_unlocks" USING btree ("tenant_id","id");--> statement-breakpoint
-- Row-level security for remote unlock requests (issue #26), as in 0007_credentials_rls.sql.
ALTER TABLE remote_unlocks ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON remote_unlocks USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
