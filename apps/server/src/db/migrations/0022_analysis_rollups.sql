CREATE TABLE "analysis_battery_forecast" (
	"lock_id" integer PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"slope_per_day" real NOT NULL,
	"battery" integer NOT NULL,
	"flat_at" timestamp with time zone,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analysis_cursors" (
	"source" text PRIMARY KEY NOT NULL,
	"watermark" bigint DEFAULT 0 NOT NULL,
	"pending_max" bigint DEFAULT 0 NOT NULL,
	"pending_xmax" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analysis_lock_day" (
	"tenant_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"day" date NOT NULL,
	"metric" text NOT NULL,
	"n" bigint NOT NULL,
	"sum" bigint DEFAULT 0 NOT NULL,
	"min" integer,
	"max" integer,
	CONSTRAINT "analysis_lock_day_lock_id_day_metric_pk" PRIMARY KEY("lock_id","day","metric")
);
--> statement-breakpoint
CREATE TABLE "analysis_tenant_day" (
	"tenant_id" integer NOT NULL,
	"day" date NOT NULL,
	"metric" text NOT NULL,
	"n" bigint NOT NULL,
	"sum" bigint DEFAULT 0 NOT NULL,
	"min" integer,
	"max" integer,
	CONSTRAINT "analysis_tenant_day_tenant_id_day_metric_pk" PRIMARY KEY("tenant_id","day","metric")
);
--> statement-breakpoint
CREATE TABLE "analysis_tenant_hour" (
	"tenant_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"metric" text NOT NULL,
	"n" bigint NOT NULL,
	"sum" bigint DEFAULT 0 NOT NULL,
	"min" integer,
	"max" integer,
	CONSTRAINT "analysis_tenant_hour_tenant_id_hour_metric_pk" PRIMARY KEY("tenant_id","hour","metric")
);
--> statement-breakpoint
CREATE TABLE "analysis_thresholds" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"forced_entry_s" integer NOT NULL,
	"brute_force_attempts" integer NOT NULL,
	"brute_force_locks" integer NOT NULL,
	"brute_force_window_s" integer NOT NULL,
	"silent_intervals" real NOT NULL,
	"battery_cliff_days" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "analysis_battery_forecast_tenant_flat" ON "analysis_battery_forecast" USING btree ("tenant_id","flat_at");--> statement-breakpoint
CREATE INDEX "analysis_lock_day_tenant_metric" ON "analysis_lock_day" USING btree ("tenant_id","metric","day");