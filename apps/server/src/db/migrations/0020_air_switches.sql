CREATE TABLE "air_switch_alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"air_switch_id" integer NOT NULL,
	"circuit" integer NOT NULL,
	"kind" text NOT NULL,
	"severity" text NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"occurrences" integer DEFAULT 1 NOT NULL,
	"detail" text,
	"first_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cleared_at" timestamp with time zone,
	"acknowledged_by" text,
	"acknowledged_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "air_switch_circuits" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"air_switch_id" integer NOT NULL,
	"circuit" integer NOT NULL,
	"name" text NOT NULL,
	"state" text,
	"trip_reason" text,
	"voltage" real,
	"current" real,
	"power" real,
	"power_factor" real,
	"energy_kwh" double precision,
	"leakage_ma" real,
	"temperature_c" real,
	"reading_at" timestamp with time zone,
	"reading_seq" integer,
	"desired_thresholds" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reported_thresholds" jsonb
);
--> statement-breakpoint
CREATE TABLE "air_switch_commands" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"air_switch_id" integer NOT NULL,
	"msg_id" text NOT NULL,
	"circuit" integer NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"state" text DEFAULT 'QUEUED' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"result_code" integer,
	"result_detail" text
);
--> statement-breakpoint
CREATE TABLE "air_switch_energy_daily" (
	"tenant_id" integer NOT NULL,
	"circuit_id" integer NOT NULL,
	"kwh" double precision DEFAULT 0 NOT NULL,
	"power_sum" double precision DEFAULT 0 NOT NULL,
	"samples" integer DEFAULT 0 NOT NULL,
	"power_max" real DEFAULT 0 NOT NULL,
	"trips" integer DEFAULT 0 NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "air_switch_energy_daily_circuit_id_day_pk" PRIMARY KEY("circuit_id","day")
);
--> statement-breakpoint
CREATE TABLE "air_switch_energy_hourly" (
	"tenant_id" integer NOT NULL,
	"circuit_id" integer NOT NULL,
	"kwh" double precision DEFAULT 0 NOT NULL,
	"power_sum" double precision DEFAULT 0 NOT NULL,
	"samples" integer DEFAULT 0 NOT NULL,
	"power_max" real DEFAULT 0 NOT NULL,
	"trips" integer DEFAULT 0 NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	CONSTRAINT "air_switch_energy_hourly_circuit_id_hour_pk" PRIMARY KEY("circuit_id","hour")
);
--> statement-breakpoint
CREATE TABLE "air_switch_load_hourly" (
	"tenant_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"load_w" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "air_switch_load_hourly_tenant_id_hour_pk" PRIMARY KEY("tenant_id","hour")
);
--> statement-breakpoint
CREATE TABLE "air_switch_uplinks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"air_switch_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"type" text NOT NULL,
	"device_ts" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"data" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "air_switches" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"serial" text NOT NULL,
	"name" text NOT NULL,
	"model" text NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"device_secret_hash" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"simulated" boolean DEFAULT false NOT NULL,
	"last_seq" integer,
	"last_uplink_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "air_switch_alerts" ADD CONSTRAINT "air_switch_alerts_air_switch_id_air_switches_id_fk" FOREIGN KEY ("air_switch_id") REFERENCES "public"."air_switches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "air_switch_circuits" ADD CONSTRAINT "air_switch_circuits_air_switch_id_air_switches_id_fk" FOREIGN KEY ("air_switch_id") REFERENCES "public"."air_switches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "air_switch_commands" ADD CONSTRAINT "air_switch_commands_air_switch_id_air_switches_id_fk" FOREIGN KEY ("air_switch_id") REFERENCES "public"."air_switches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "air_switches" ADD CONSTRAINT "air_switches_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "air_switch_alerts_one_active" ON "air_switch_alerts" USING btree ("air_switch_id","circuit","kind") WHERE state = 'active';--> statement-breakpoint
CREATE INDEX "air_switch_alerts_tenant_time" ON "air_switch_alerts" USING btree ("tenant_id","last_at");--> statement-breakpoint
CREATE UNIQUE INDEX "air_switch_circuits_switch" ON "air_switch_circuits" USING btree ("air_switch_id","circuit");--> statement-breakpoint
CREATE INDEX "air_switch_circuits_tenant" ON "air_switch_circuits" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "air_switch_commands_msg" ON "air_switch_commands" USING btree ("msg_id");--> statement-breakpoint
CREATE INDEX "air_switch_commands_switch" ON "air_switch_commands" USING btree ("air_switch_id","id");--> statement-breakpoint
CREATE INDEX "air_switch_commands_open" ON "air_switch_commands" USING btree ("state") WHERE state in ('QUEUED', 'SENT', 'DELIVERED');--> statement-breakpoint
CREATE INDEX "air_switch_energy_daily_tenant" ON "air_switch_energy_daily" USING btree ("tenant_id","day");--> statement-breakpoint
CREATE INDEX "air_switch_energy_hourly_tenant" ON "air_switch_energy_hourly" USING btree ("tenant_id","hour");--> statement-breakpoint
CREATE UNIQUE INDEX "air_switch_uplinks_switch_seq" ON "air_switch_uplinks" USING btree ("air_switch_id","seq");--> statement-breakpoint
CREATE INDEX "air_switch_uplinks_received" ON "air_switch_uplinks" USING brin ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "air_switches_serial" ON "air_switches" USING btree ("serial");--> statement-breakpoint
CREATE INDEX "air_switches_tenant" ON "air_switches" USING btree ("tenant_id","id");