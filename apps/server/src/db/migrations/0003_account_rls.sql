-- Row-level security for login accounts (issue #5), in the style of 0001_rls.sql. Accounts are global
-- (one username signs in everywhere) and belong to tenants through account_tenants, so:
-- * account_tenants: every membership is readable (an account's tenant list), but a tenant transaction
--   inserts, updates and deletes only its own tenant's memberships;
-- * accounts: a tenant transaction sees, updates and deletes only administrators (type 0, who work in
--   every tenant) and the accounts that belong to its tenant; it may insert operators only, so an
--   administrator can be created by the owner connection (seed, deployment) and never through the API.
--   A new account becomes visible once its membership row is inserted in the same transaction.
ALTER TABLE account_tenants ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY membership_read ON account_tenants FOR SELECT USING (true);
--> statement-breakpoint
CREATE POLICY tenant_insert ON account_tenants FOR INSERT WITH CHECK (tenant_id = app_tenant_id());
--> statement-breakpoint
CREATE POLICY tenant_update ON account_tenants FOR UPDATE USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
--> statement-breakpoint
CREATE POLICY tenant_delete ON account_tenants FOR DELETE USING (tenant_id = app_tenant_id());
--> statement-breakpoint
CREATE FUNCTION account_in_tenant(account_type integer, account_id integer) RETURNS boolean LANGUAGE sql STABLE AS
  $$ SELECT account_type = 0 OR EXISTS (
       SELECT 1 FROM account_tenants m WHERE m.account_id = $2 AND m.tenant_id = app_tenant_id()) $$;
--> statement-breakpoint
ALTER TABLE accounts ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_select ON accounts FOR SELECT USING (account_in_tenant(type, id));
--> statement-breakpoint
CREATE POLICY tenant_update ON accounts FOR UPDATE USING (account_in_tenant(type, id)) WITH CHECK (account_in_tenant(type, id));
--> statement-breakpoint
CREATE POLICY tenant_delete ON accounts FOR DELETE USING (account_in_tenant(type, id));
--> statement-breakpoint
CREATE POLICY operators_insert ON accounts FOR INSERT WITH CHECK (type <> 0);
