CREATE TABLE "customer_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"contact" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_keys" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"customer_code_id" bigint NOT NULL,
	"secret_sealed" text NOT NULL,
	"hint" text NOT NULL,
	"valid_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_configs" (
	"customer_code_id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"url" text NOT NULL,
	"event_types" text[] NOT NULL,
	"buildings" text[] DEFAULT '{}'::text[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"last_success_at" timestamp with time zone,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"failing_since" timestamp with time zone,
	"paused_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"customer_code_id" bigint NOT NULL,
	"event_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"lock_id" integer,
	"occurred_at" timestamp with time zone NOT NULL,
	"data" jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"last_status" integer,
	"last_latency_ms" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"replay_of" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer_codes" ADD CONSTRAINT "customer_codes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_keys" ADD CONSTRAINT "customer_keys_customer_code_id_customer_codes_id_fk" FOREIGN KEY ("customer_code_id") REFERENCES "public"."customer_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_configs" ADD CONSTRAINT "push_configs_customer_code_id_customer_codes_id_fk" FOREIGN KEY ("customer_code_id") REFERENCES "public"."customer_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_deliveries" ADD CONSTRAINT "push_deliveries_customer_code_id_customer_codes_id_fk" FOREIGN KEY ("customer_code_id") REFERENCES "public"."customer_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_codes_code" ON "customer_codes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "customer_codes_tenant" ON "customer_codes" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "customer_keys_code" ON "customer_keys" USING btree ("customer_code_id");--> statement-breakpoint
CREATE INDEX "push_configs_tenant" ON "push_configs" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "push_deliveries_due" ON "push_deliveries" USING btree ("next_attempt_at") WHERE state = 'pending';--> statement-breakpoint
CREATE INDEX "push_deliveries_order" ON "push_deliveries" USING btree ("customer_code_id","lock_id","id") WHERE state = 'pending';--> statement-breakpoint
CREATE INDEX "push_deliveries_tenant_time" ON "push_deliveries" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "push_deliveries_event" ON "push_deliveries" USING btree ("event_id");