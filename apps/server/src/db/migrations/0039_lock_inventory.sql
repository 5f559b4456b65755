CREATE TABLE "lock_inventories" (
	"lock_id" integer PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"reason" text NOT NULL,
	"digest" text NOT NULL,
	"users" text NOT NULL,
	"passwords" text NOT NULL,
	"cards" text NOT NULL,
	"fingerprints" text NOT NULL,
	"reported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "unmanaged_slots" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"slot_table" text NOT NULL,
	"slot" integer NOT NULL,
	"sync_state" text NOT NULL,
	"pending_action" text NOT NULL,
	"last_command_id" bigint,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lock_inventories" ADD CONSTRAINT "lock_inventories_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unmanaged_slots" ADD CONSTRAINT "unmanaged_slots_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "unmanaged_slots_lock_slot" ON "unmanaged_slots" USING btree ("lock_id","slot_table","slot");--> statement-breakpoint
CREATE INDEX "unmanaged_slots_tenant" ON "unmanaged_slots" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "unmanaged_slots_command" ON "unmanaged_slots" USING btree ("last_command_id");--> statement-breakpoint
-- Row-level security for the inventory tables (issue #26), as in 0007_credentials_rls.sql.
ALTER TABLE lock_inventories ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON lock_inventories USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
--> statement-breakpoint
ALTER TABLE unmanaged_slots ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON unmanaged_slots USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
