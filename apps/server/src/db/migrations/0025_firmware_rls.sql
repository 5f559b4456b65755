-- Row-level security for the firmware tables (issue #12), as in 0001_rls.sql / 0015.
ALTER TABLE firmware_packages ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON firmware_packages USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
--> statement-breakpoint
ALTER TABLE firmware_rollouts ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON firmware_rollouts USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
--> statement-breakpoint
ALTER TABLE firmware_jobs ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON firmware_jobs USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
