CREATE TABLE "access_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"lock_user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"schedule_index" integer NOT NULL,
	"days_mask" integer,
	"start_minute" integer,
	"end_minute" integer,
	"local_start_time" timestamp with time zone,
	"local_end_time" timestamp with time zone,
	"sync_state" text NOT NULL,
	"pending_action" text NOT NULL,
	"last_command_id" bigint,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "holiday_calendars" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"buildings" text[] DEFAULT '{}'::text[] NOT NULL,
	"group_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "holiday_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"calendar_id" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"operating_mode" text NOT NULL,
	"works_as" text
);
--> statement-breakpoint
CREATE TABLE "lock_holiday_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"entry_id" integer,
	"calendar_id" integer,
	"name" text NOT NULL,
	"holiday_index" integer NOT NULL,
	"local_start_time" timestamp with time zone NOT NULL,
	"local_end_time" timestamp with time zone NOT NULL,
	"operating_mode" text NOT NULL,
	"works_as" text,
	"sync_state" text NOT NULL,
	"pending_action" text NOT NULL,
	"last_command_id" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "open_records" ADD COLUMN "refusal" text;--> statement-breakpoint
ALTER TABLE "open_records" ADD COLUMN "operator" text;--> statement-breakpoint
ALTER TABLE "lock_users" ADD COLUMN "user_type" text DEFAULT 'unrestrictedUser' NOT NULL;--> statement-breakpoint
ALTER TABLE "lock_users" ADD COLUMN "credential_rule" text DEFAULT 'single' NOT NULL;--> statement-breakpoint
ALTER TABLE "lock_users" ADD COLUMN "expiring_minutes" integer;--> statement-breakpoint
ALTER TABLE "device_types" ADD COLUMN "week_day_schedules_per_user" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "device_types" ADD COLUMN "year_day_schedules_per_user" integer DEFAULT 4 NOT NULL;--> statement-breakpoint
ALTER TABLE "device_types" ADD COLUMN "holiday_schedules" integer DEFAULT 16 NOT NULL;--> statement-breakpoint
ALTER TABLE "device_types" ADD COLUMN "credential_rules_support" text[] DEFAULT '{single}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "access_schedules" ADD CONSTRAINT "access_schedules_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_schedules" ADD CONSTRAINT "access_schedules_lock_user_id_lock_users_id_fk" FOREIGN KEY ("lock_user_id") REFERENCES "public"."lock_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holiday_entries" ADD CONSTRAINT "holiday_entries_calendar_id_holiday_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."holiday_calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_holiday_schedules" ADD CONSTRAINT "lock_holiday_schedules_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_holiday_schedules" ADD CONSTRAINT "lock_holiday_schedules_entry_id_holiday_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."holiday_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "access_schedules_user_index" ON "access_schedules" USING btree ("lock_user_id","kind","schedule_index");--> statement-breakpoint
CREATE INDEX "access_schedules_tenant" ON "access_schedules" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "access_schedules_lock" ON "access_schedules" USING btree ("lock_id");--> statement-breakpoint
CREATE INDEX "access_schedules_command" ON "access_schedules" USING btree ("last_command_id");--> statement-breakpoint
CREATE UNIQUE INDEX "holiday_calendars_tenant_name" ON "holiday_calendars" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "holiday_entries_calendar" ON "holiday_entries" USING btree ("calendar_id","start_date");--> statement-breakpoint
CREATE UNIQUE INDEX "lock_holiday_schedules_lock_index" ON "lock_holiday_schedules" USING btree ("lock_id","holiday_index");--> statement-breakpoint
CREATE INDEX "lock_holiday_schedules_tenant" ON "lock_holiday_schedules" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "lock_holiday_schedules_calendar" ON "lock_holiday_schedules" USING btree ("calendar_id");--> statement-breakpoint
CREATE INDEX "lock_holiday_schedules_command" ON "lock_holiday_schedules" USING btree ("last_command_id");--> statement-breakpoint
-- Row-level security for the access-schedule tables (issue #26), as in 0007_credentials_rls.sql.
ALTER TABLE access_schedules ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON access_schedules USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
--> statement-breakpoint
ALTER TABLE holiday_calendars ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON holiday_calendars USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
--> statement-breakpoint
ALTER TABLE holiday_entries ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON holiday_entries USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
--> statement-breakpoint
ALTER TABLE lock_holiday_schedules ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON lock_holiday_schedules USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
