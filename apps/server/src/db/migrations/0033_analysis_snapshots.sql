CREATE TABLE "analysis_snapshots" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"current" jsonb,
	"current_at" timestamp with time zone,
	"lists" jsonb,
	"lists_at" timestamp with time zone
);
--> statement-breakpoint
-- Row-level security as for the other analysis tables (0023_analysis_rls.sql): the tenant reader sees its own row only.
ALTER TABLE analysis_snapshots ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON analysis_snapshots USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
