CREATE TABLE "firmware_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"rollout_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"state" text DEFAULT 'QUEUED' NOT NULL,
	"wait_gate" text,
	"reason" text,
	"progress" integer DEFAULT 0 NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"canary" boolean DEFAULT false NOT NULL,
	"from_version" text,
	"request_seq" integer,
	"request_offset" integer,
	"served_seq" integer,
	"status_seq" integer,
	"state_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"progress_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware_packages" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"model" text NOT NULL,
	"version" text NOT NULL,
	"file_name" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"notes_zh" text DEFAULT '' NOT NULL,
	"notes_en" text DEFAULT '' NOT NULL,
	"created_by" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware_rollouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"package_id" integer,
	"name" text DEFAULT '' NOT NULL,
	"model" text NOT NULL,
	"version" text NOT NULL,
	"target" jsonb NOT NULL,
	"gray_percent" integer NOT NULL,
	"from_versions" text[] DEFAULT '{}'::text[] NOT NULL,
	"min_battery" integer NOT NULL,
	"min_rssi" integer NOT NULL,
	"window_start" text,
	"window_end" text,
	"time_zone" text NOT NULL,
	"canary_size" integer NOT NULL,
	"canary_passed" boolean DEFAULT false NOT NULL,
	"failure_threshold_pct" integer NOT NULL,
	"min_results" integer NOT NULL,
	"max_retries" integer NOT NULL,
	"lock_timeout_s" integer NOT NULL,
	"state" text DEFAULT 'CREATED' NOT NULL,
	"pause_reason" text,
	"accepted_failures" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"created_by" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "firmware_jobs" ADD CONSTRAINT "firmware_jobs_rollout_id_firmware_rollouts_id_fk" FOREIGN KEY ("rollout_id") REFERENCES "public"."firmware_rollouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_jobs" ADD CONSTRAINT "firmware_jobs_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_packages" ADD CONSTRAINT "firmware_packages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_rollouts" ADD CONSTRAINT "firmware_rollouts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_rollouts" ADD CONSTRAINT "firmware_rollouts_package_id_firmware_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."firmware_packages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_jobs_rollout_lock" ON "firmware_jobs" USING btree ("rollout_id","lock_id");--> statement-breakpoint
CREATE INDEX "firmware_jobs_rollout_state" ON "firmware_jobs" USING btree ("rollout_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_jobs_active_lock" ON "firmware_jobs" USING btree ("lock_id") WHERE "firmware_jobs"."state" not in ('UPDATED', 'FAILED', 'CANCELED');--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_packages_tenant_model_version" ON "firmware_packages" USING btree ("tenant_id","model","version");--> statement-breakpoint
CREATE INDEX "firmware_rollouts_state" ON "firmware_rollouts" USING btree ("state");--> statement-breakpoint
CREATE INDEX "firmware_rollouts_package" ON "firmware_rollouts" USING btree ("package_id");