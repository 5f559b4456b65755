-- Row-level security for orders and refunds (issue #15), as in 0001_rls.sql. Packages are global.
ALTER TABLE orders ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON orders USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
--> statement-breakpoint
ALTER TABLE refunds ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON refunds USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
--> statement-breakpoint
-- Starting packages (administrators edit or disable them on the 套餐 page).
INSERT INTO products (name_zh, name_en, description_zh, description_en, price_fen, lock_count, months) VALUES
  ('单锁年度服务', 'One lock, one year', '1 把门锁 12 个月云服务', '12 months of cloud service for 1 lock', 9900, 1, 12),
  ('十锁年度服务', 'Ten locks, one year', '最多 10 把门锁各 12 个月云服务', '12 months of cloud service for up to 10 locks', 89900, 10, 12),
  ('单锁季度服务', 'One lock, three months', '1 把门锁 3 个月云服务', '3 months of cloud service for 1 lock', 2900, 1, 3);
