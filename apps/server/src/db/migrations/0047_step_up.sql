DROP INDEX "audit_log_failed_sign_in_address";--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "step_up_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "audit_log_failed_sign_in_address" ON "audit_log" USING btree ("client_ip","created_at") WHERE "audit_log"."action" in ('sign-in', 'step-up') and "audit_log"."result" in ('INVALID_CREDENTIALS', 'TWO_FACTOR_INVALID');