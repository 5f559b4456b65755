CREATE TABLE "backup_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"lock_user_id" integer NOT NULL,
	"credential_id" integer NOT NULL,
	"state" text DEFAULT 'pool' NOT NULL,
	"stay_id" integer,
	"issued_at" timestamp with time zone,
	"issued_by" text,
	"retired_at" timestamp with time zone,
	"retire_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "backup_codes_state" CHECK ("backup_codes"."state" in ('pool', 'issued', 'retired')),
	CONSTRAINT "backup_codes_issued_to" CHECK ("backup_codes"."state" = 'pool' or ("backup_codes"."stay_id" is not null and "backup_codes"."issued_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "device_types" ADD COLUMN "backup_code_pool" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_codes" ADD CONSTRAINT "backup_codes_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_codes" ADD CONSTRAINT "backup_codes_stay_id_stays_id_fk" FOREIGN KEY ("stay_id") REFERENCES "public"."stays"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "backup_codes_lock" ON "backup_codes" USING btree ("lock_id","state");--> statement-breakpoint
CREATE INDEX "backup_codes_stay" ON "backup_codes" USING btree ("stay_id");--> statement-breakpoint
CREATE INDEX "backup_codes_issued" ON "backup_codes" USING btree ("tenant_id") WHERE state = 'issued';--> statement-breakpoint
-- Row-level security for backup codes (issue #27), as in 0007_credentials_rls.sql.
ALTER TABLE backup_codes ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON backup_codes USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
