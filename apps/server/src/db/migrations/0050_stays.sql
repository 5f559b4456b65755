CREATE TABLE "stay_doors" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"stay_id" integer NOT NULL,
	"guest_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"lock_user_id" integer,
	"credential_id" integer,
	"released_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "stay_guests" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"stay_id" integer NOT NULL,
	"name" text NOT NULL,
	"mobile" text NOT NULL,
	"id_card_enc" text,
	"id_card_last4" text,
	"password_enc" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stays" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"building" text NOT NULL,
	"floor" text NOT NULL,
	"room" text NOT NULL,
	"kind" text NOT NULL,
	"state" text NOT NULL,
	"check_in_at" timestamp with time zone NOT NULL,
	"check_out_at" timestamp with time zone NOT NULL,
	"buffer_before_minutes" integer NOT NULL,
	"buffer_after_minutes" integer NOT NULL,
	"reference" text,
	"issue_due_at" timestamp with time zone NOT NULL,
	"issued_at" timestamp with time zone,
	"pending" boolean DEFAULT false NOT NULL,
	"alerted_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stays_kind" CHECK ("stays"."kind" in ('hotelNight', 'shortRental', 'longLease')),
	CONSTRAINT "stays_state" CHECK ("stays"."state" in ('BOOKED', 'CHECKED_IN', 'CHECKED_OUT', 'CANCELLED', 'NO_SHOW')),
	CONSTRAINT "stays_times" CHECK ("stays"."check_in_at" < "stays"."check_out_at")
);
--> statement-breakpoint
ALTER TABLE "stay_doors" ADD CONSTRAINT "stay_doors_stay_id_stays_id_fk" FOREIGN KEY ("stay_id") REFERENCES "public"."stays"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stay_doors" ADD CONSTRAINT "stay_doors_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stay_guests" ADD CONSTRAINT "stay_guests_stay_id_stays_id_fk" FOREIGN KEY ("stay_id") REFERENCES "public"."stays"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stay_doors_stay" ON "stay_doors" USING btree ("stay_id");--> statement-breakpoint
CREATE INDEX "stay_doors_user" ON "stay_doors" USING btree ("lock_user_id");--> statement-breakpoint
CREATE INDEX "stay_guests_stay" ON "stay_guests" USING btree ("stay_id");--> statement-breakpoint
CREATE INDEX "stays_tenant" ON "stays" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "stays_tenant_room" ON "stays" USING btree ("tenant_id","building","floor","room","check_in_at");--> statement-breakpoint
CREATE INDEX "stays_issue_due" ON "stays" USING btree ("issue_due_at") WHERE issued_at is null and state in ('BOOKED', 'CHECKED_IN');--> statement-breakpoint
-- Row-level security for stays (issue #27), as in 0007_credentials_rls.sql.
ALTER TABLE stays ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON stays USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
--> statement-breakpoint
ALTER TABLE stay_guests ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON stay_guests USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
--> statement-breakpoint
ALTER TABLE stay_doors ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON stay_doors USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());
