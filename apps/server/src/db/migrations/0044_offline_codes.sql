CREATE TABLE "offline_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"kind" text NOT NULL,
	"recipient_name" text NOT NULL,
	"recipient_mobile" text NOT NULL,
	"issued_by" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone NOT NULL,
	"from_hour" integer,
	"to_hour" integer,
	"code_digest" text NOT NULL,
	CONSTRAINT "offline_codes_kind" CHECK ("offline_codes"."kind" in ('oneTime', 'hourly', 'daily'))
);
--> statement-breakpoint
ALTER TABLE "offline_codes" ADD CONSTRAINT "offline_codes_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offline_codes_tenant" ON "offline_codes" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "offline_codes_lock_code" ON "offline_codes" USING btree ("lock_id","code_digest");--> statement-breakpoint
-- Row-level security for offline codes (issue #27), as in 0007_credentials_rls.sql.
ALTER TABLE offline_codes ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON offline_codes USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
