CREATE INDEX "locks_tenant_firmware" ON "locks" USING btree ("tenant_id","firmware_version");--> statement-breakpoint
CREATE INDEX "commands_lock_config_push" ON "commands" USING btree ("lock_id","id") WHERE type = 'configPush';--> statement-breakpoint
CREATE INDEX "commands_lock_failed" ON "commands" USING btree ("lock_id","completed_at") WHERE state in ('FAILED', 'TIMEOUT', 'EXPIRED');--> statement-breakpoint
CREATE INDEX "credentials_unsynced" ON "credentials" USING btree ("lock_id") WHERE sync_state <> 'normal';--> statement-breakpoint
CREATE INDEX "lock_users_unsynced" ON "lock_users" USING btree ("lock_id") WHERE sync_state <> 'normal';