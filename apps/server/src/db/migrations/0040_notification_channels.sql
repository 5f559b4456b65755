CREATE TABLE "notification_channels" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"language" text DEFAULT 'zh-CN' NOT NULL,
	"settings" jsonb NOT NULL,
	"sealed" text NOT NULL,
	"secret_hint" text DEFAULT '' NOT NULL,
	"last_test_at" timestamp with time zone,
	"last_test_sent" boolean,
	"last_test_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_channels" ADD CONSTRAINT "notification_channels_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_channels_tenant" ON "notification_channels" USING btree ("tenant_id","id");--> statement-breakpoint
-- Row-level security for the notification tables (issue #25), as in 0007_credentials_rls.sql.
ALTER TABLE notification_channels ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON notification_channels USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
