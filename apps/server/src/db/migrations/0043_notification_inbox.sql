CREATE TABLE "notification_inbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"notification_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "acknowledge_note" text;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "escalation" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_rules" ADD COLUMN "escalate_after_min" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_rules" ADD COLUMN "escalation_channel_ids" bigint[] DEFAULT '{}'::bigint[] NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_rules" ADD COLUMN "quiet_start" text;--> statement-breakpoint
ALTER TABLE "notification_rules" ADD COLUMN "quiet_end" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "escalate_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "escalated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notification_inbox" ADD CONSTRAINT "notification_inbox_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_inbox" ADD CONSTRAINT "notification_inbox_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_inbox_account" ON "notification_inbox" USING btree ("tenant_id","account_id","id");--> statement-breakpoint
CREATE INDEX "notification_inbox_unread" ON "notification_inbox" USING btree ("tenant_id","account_id") WHERE read_at is null;--> statement-breakpoint
CREATE INDEX "notifications_escalation" ON "notifications" USING btree ("escalate_at") WHERE escalate_at is not null;--> statement-breakpoint
-- Row-level security for the inbox (issue #25), as in 0041_notifications.sql; the routes also scope to the caller's account.
ALTER TABLE notification_inbox ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON notification_inbox USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
