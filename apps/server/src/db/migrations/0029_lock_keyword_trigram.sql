-- The lock keyword search (modules/lockDevice/sql.ts lockPatternMatch: IMEI, name or room text contains
-- the keyword, ILIKE '%...%') by trigram indexes instead of reading every lock of the data centre
-- (issue #11 bench: ~40 ms a search at 100,000 locks). pg_trgm is a trusted extension (PostgreSQL 13+:
-- the database owner may create it; Debian ships it with the server); PGlite loads it in db/client.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX locks_imei_trgm ON locks USING gin (imei gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX locks_name_trgm ON locks USING gin (name gin_trgm_ops);
--> statement-breakpoint
-- The room text as roomSql writes it (concat_ws('/', nullif(building, ''), ...)) in immutable operators
-- only (concat_ws is STABLE, so no index may use it): every non-empty part after a '/', the first '/' cut.
CREATE INDEX locks_room_trgm ON locks USING gin ((substr(coalesce('/' || nullif(building, ''), '') || coalesce('/' || nullif(floor, ''), '')
  || coalesce('/' || nullif(room, ''), ''), 2)) gin_trgm_ops);
--> statement-breakpoint
-- Under row-level security the planner applies the policy (tenant_id = app_tenant_id()) before any qual
-- that is not leakproof, and ILIKE is not: on locks itself, as iot_app, the search is never an index
-- condition. This view is the owner's (a view reads its tables with its owner's rights, and the owner is
-- not subject to row-level security), so a search through it is planned as the owner's, on the trigram
-- indexes. Its own tenant condition confines it to the request's data centre (no rows without
-- app.tenant_id); `(select app_tenant_id())`, not app_tenant_id(): the same expression as the policy's
-- would join both in one equivalence class and give the view's rows the policy's security level again.
-- Queries using it still read locks under row-level security. Read-only for iot_app: a simple view is
-- updatable, and a write through it would skip the policy's WITH CHECK.
CREATE VIEW lock_search AS
  SELECT id, imei, name, substr(coalesce('/' || nullif(building, ''), '') || coalesce('/' || nullif(floor, ''), '')
    || coalesce('/' || nullif(room, ''), ''), 2) AS room_text
  FROM locks WHERE tenant_id = (SELECT app_tenant_id());
--> statement-breakpoint
REVOKE ALL ON lock_search FROM iot_app;
--> statement-breakpoint
GRANT SELECT ON lock_search TO iot_app;
