ALTER TABLE "audit_log" ADD COLUMN "target_name" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "changes" jsonb;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "time_zone" text DEFAULT 'Asia/Shanghai' NOT NULL;--> statement-breakpoint
CREATE INDEX "credential_operations_time" ON "credential_operations" USING btree ("tenant_id","subject","created_at");