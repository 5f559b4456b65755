CREATE TABLE "credential_operations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"subject" text NOT NULL,
	"action" text NOT NULL,
	"row_id" integer,
	"kind" text,
	"slot" integer,
	"holder_name" text,
	"operator" text NOT NULL,
	"command_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credentials" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"kind" text NOT NULL,
	"slot" integer,
	"slot_table" text NOT NULL,
	"lock_user_id" integer,
	"user_slot" integer,
	"valid_from" timestamp with time zone,
	"valid_to" timestamp with time zone,
	"one_time" boolean DEFAULT false NOT NULL,
	"card_number" text,
	"reversed" boolean DEFAULT false NOT NULL,
	"secret_enc" text,
	"sync_state" text NOT NULL,
	"pending_action" text NOT NULL,
	"last_command_id" bigint,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lock_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"user_slot" integer NOT NULL,
	"name" text NOT NULL,
	"phone" text,
	"valid_from" timestamp with time zone,
	"valid_to" timestamp with time zone,
	"status" text DEFAULT 'normal' NOT NULL,
	"sync_state" text NOT NULL,
	"pending_action" text NOT NULL,
	"last_command_id" bigint,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credential_operations" ADD CONSTRAINT "credential_operations_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_lock_user_id_lock_users_id_fk" FOREIGN KEY ("lock_user_id") REFERENCES "public"."lock_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_users" ADD CONSTRAINT "lock_users_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credential_operations_tenant" ON "credential_operations" USING btree ("tenant_id","subject","id");--> statement-breakpoint
CREATE UNIQUE INDEX "credentials_lock_slot" ON "credentials" USING btree ("lock_id","slot_table","slot") WHERE "credentials"."slot" is not null;--> statement-breakpoint
CREATE INDEX "credentials_tenant" ON "credentials" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "credentials_command" ON "credentials" USING btree ("last_command_id");--> statement-breakpoint
CREATE INDEX "credentials_card" ON "credentials" USING btree ("tenant_id","card_number");--> statement-breakpoint
CREATE UNIQUE INDEX "lock_users_lock_slot" ON "lock_users" USING btree ("lock_id","user_slot");--> statement-breakpoint
CREATE INDEX "lock_users_tenant" ON "lock_users" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "lock_users_command" ON "lock_users" USING btree ("last_command_id");