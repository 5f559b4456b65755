CREATE TABLE "alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
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
CREATE TABLE "commands" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"msg_id" text NOT NULL,
	"tenant_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"state" text DEFAULT 'QUEUED' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 3 NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"result_code" integer,
	"result_detail" text,
	"result_slot" integer,
	CONSTRAINT "commands_msg_id_unique" UNIQUE("msg_id")
);
--> statement-breakpoint
CREATE TABLE "open_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"uplink_id" bigint,
	"method" text NOT NULL,
	"slot" integer,
	"user_slot" integer,
	"success" boolean NOT NULL,
	"lock_time" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uplinks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"msg_id" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"device_ts" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "locks" ADD COLUMN "last_uplink_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "locks" ADD COLUMN "always_online" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "locks" ADD COLUMN "door_state" text;--> statement-breakpoint
ALTER TABLE "locks" ADD COLUMN "locked" boolean;--> statement-breakpoint
ALTER TABLE "locks" ADD COLUMN "config" jsonb;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commands" ADD CONSTRAINT "commands_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "open_records" ADD CONSTRAINT "open_records_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uplinks" ADD CONSTRAINT "uplinks_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_one_active" ON "alerts" USING btree ("lock_id","kind") WHERE state = 'active';--> statement-breakpoint
CREATE INDEX "alerts_tenant_time" ON "alerts" USING btree ("tenant_id","last_at");--> statement-breakpoint
CREATE INDEX "commands_lock_state" ON "commands" USING btree ("lock_id","state","id");--> statement-breakpoint
CREATE INDEX "commands_state_expiry" ON "commands" USING btree ("state","expires_at");--> statement-breakpoint
CREATE INDEX "commands_tenant_time" ON "commands" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "open_records_lock_time" ON "open_records" USING btree ("lock_id","received_at");--> statement-breakpoint
CREATE INDEX "open_records_tenant_time" ON "open_records" USING btree ("tenant_id","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "uplinks_lock_seq" ON "uplinks" USING btree ("lock_id","seq");--> statement-breakpoint
CREATE INDEX "uplinks_lock_time" ON "uplinks" USING btree ("lock_id","received_at");--> statement-breakpoint
CREATE INDEX "uplinks_tenant_time" ON "uplinks" USING btree ("tenant_id","received_at");