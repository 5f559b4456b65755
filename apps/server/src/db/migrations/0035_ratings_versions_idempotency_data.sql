-- Issue #31, data for 0034. (1) Ratings of existing air switch types: the seeded models as the contract's
-- AIR_SWITCH_MODELS, other models 63 A / 220 V / 10-500 mA with as many circuits as their switches have.
-- Heartbeat ranges default to the protocol's 10-86400 s (column defaults).
UPDATE device_types SET
  circuits = CASE model WHEN 'ZG-AS2' THEN 2 WHEN 'ZG-AS4' THEN 4 ELSE greatest(1, coalesce((
    SELECT max(c.circuit) FROM air_switch_circuits c JOIN air_switches s ON s.id = c.air_switch_id
    WHERE s.tenant_id = device_types.tenant_id AND s.model = device_types.model), 1)) END,
  rated_current_a = CASE model WHEN 'ZG-AS2' THEN 40 ELSE 63 END,
  rated_voltage_v = 220,
  leakage_min_ma = 10,
  leakage_max_ma = CASE WHEN model IN ('ZG-AS2', 'ZG-AS4') THEN 300 ELSE 500 END
WHERE kind = 'airSwitch';
--> statement-breakpoint
-- (2) One canonical version (no leading v/V, no build metadata: semver.org §10-11 give them no
-- precedence). A package whose canonical version another package of its type already has keeps its text.
UPDATE firmware_packages p SET version = regexp_replace(p.version, '^[vV]|\+.*$', '', 'g')
WHERE p.version ~ '^[vV]?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$'
  AND p.version ~ '^[vV]|\+'
  AND NOT EXISTS (SELECT 1 FROM firmware_packages q WHERE q.tenant_id = p.tenant_id AND q.model = p.model AND q.id <> p.id
    AND regexp_replace(q.version, '^[vV]|\+.*$', '', 'g') = regexp_replace(p.version, '^[vV]|\+.*$', '', 'g') AND (q.id < p.id OR q.version !~ '^[vV]|\+'));
--> statement-breakpoint
UPDATE firmware_rollouts SET version = regexp_replace(version, '^[vV]|\+.*$', '', 'g')
WHERE version ~ '^[vV]?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$';
--> statement-breakpoint
UPDATE locks SET firmware_version = regexp_replace(firmware_version, '^[vV]|\+.*$', '', 'g')
WHERE firmware_version ~ '^[vV]?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$'
  AND firmware_version ~ '^[vV]|\+';
--> statement-breakpoint
UPDATE firmware_jobs SET from_version = regexp_replace(from_version, '^[vV]|\+.*$', '', 'g')
WHERE from_version ~ '^[vV]?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$'
  AND from_version ~ '^[vV]|\+';
--> statement-breakpoint
-- (3) Row-level security for idempotency keys, as in 0001_rls.sql.
ALTER TABLE idempotency_keys ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON idempotency_keys USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
