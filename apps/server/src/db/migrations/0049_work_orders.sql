CREATE TABLE "work_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"title" text NOT NULL,
	"kind" text NOT NULL,
	"priority" text DEFAULT 'normal' NOT NULL,
	"state" text DEFAULT 'OPEN' NOT NULL,
	"assignee_id" integer,
	"due_at" timestamp with time zone,
	"notes" text DEFAULT '' NOT NULL,
	"lock_ids" integer[] NOT NULL,
	"alert_ids" bigint[] DEFAULT '{}'::bigint[] NOT NULL,
	"battery" integer,
	"confirmed_lock_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"confirmed_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "notification_rules" ADD COLUMN "open_work_order" text;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_assignee_id_accounts_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "work_orders_tenant" ON "work_orders" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "work_orders_locks" ON "work_orders" USING gin ("lock_ids");--> statement-breakpoint
CREATE INDEX "work_orders_alerts" ON "work_orders" USING gin ("alert_ids");--> statement-breakpoint
-- Row-level security for work orders (issue #25), as in 0041_notifications.sql.
ALTER TABLE work_orders ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON work_orders USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
