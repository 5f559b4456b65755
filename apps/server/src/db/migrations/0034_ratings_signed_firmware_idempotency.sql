CREATE TABLE "idempotency_keys" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"applied_at" timestamp with time zone,
	"response_status" integer,
	"response_body" text,
	"locked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_types" ADD COLUMN "heartbeat_min_s" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "device_types" ADD COLUMN "heartbeat_max_s" integer DEFAULT 86400 NOT NULL;--> statement-breakpoint
ALTER TABLE "device_types" ADD COLUMN "circuits" integer;--> statement-breakpoint
ALTER TABLE "device_types" ADD COLUMN "rated_current_a" integer;--> statement-breakpoint
ALTER TABLE "device_types" ADD COLUMN "rated_voltage_v" integer;--> statement-breakpoint
ALTER TABLE "device_types" ADD COLUMN "leakage_min_ma" integer;--> statement-breakpoint
ALTER TABLE "device_types" ADD COLUMN "leakage_max_ma" integer;--> statement-breakpoint
ALTER TABLE "firmware_packages" ADD COLUMN "key_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_keys_scope_key" ON "idempotency_keys" USING btree ("tenant_id","account_id","key");--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires" ON "idempotency_keys" USING btree ("expires_at");