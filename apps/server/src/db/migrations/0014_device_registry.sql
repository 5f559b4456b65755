CREATE TABLE "device_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"kind" text DEFAULT 'lock' NOT NULL,
	"model" text NOT NULL,
	"vendor" text DEFAULT 'ZIGUANG' NOT NULL,
	"connectivity" text NOT NULL,
	"heartbeat_interval_s" integer NOT NULL,
	"capacity_users" integer NOT NULL,
	"capacity_passwords" integer NOT NULL,
	"capacity_cards" integer NOT NULL,
	"capacity_fingerprints" integer NOT NULL,
	"password_min_digits" integer NOT NULL,
	"password_max_digits" integer NOT NULL,
	"max_validity_days" integer NOT NULL,
	"unlock_methods" text[] DEFAULT '{}'::text[] NOT NULL,
	"firmware_family" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lock_group_members" (
	"group_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"tenant_id" integer NOT NULL,
	CONSTRAINT "lock_group_members_group_id_lock_id_pk" PRIMARY KEY("group_id","lock_id")
);
--> statement-breakpoint
CREATE TABLE "lock_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "locks" DROP CONSTRAINT "locks_imei_unique";--> statement-breakpoint
ALTER TABLE "locks" ADD COLUMN "iccid" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "locks" ADD COLUMN "note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "locks" ADD COLUMN "decommissioned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "locks" ADD COLUMN "imei_released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "device_types" ADD CONSTRAINT "device_types_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_group_members" ADD CONSTRAINT "lock_group_members_group_id_lock_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."lock_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_group_members" ADD CONSTRAINT "lock_group_members_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_groups" ADD CONSTRAINT "lock_groups_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_types_tenant_model" ON "device_types" USING btree ("tenant_id","model");--> statement-breakpoint
CREATE INDEX "lock_group_members_lock" ON "lock_group_members" USING btree ("lock_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lock_groups_tenant_name" ON "lock_groups" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "locks_imei_registered" ON "locks" USING btree ("imei") WHERE imei_released_at is null;--> statement-breakpoint
CREATE INDEX "locks_tenant_location" ON "locks" USING btree ("tenant_id","building","floor","room");--> statement-breakpoint
CREATE INDEX "locks_tenant_model" ON "locks" USING btree ("tenant_id","model");