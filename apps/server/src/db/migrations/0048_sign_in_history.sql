CREATE TABLE "sign_in_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"client_ip" text NOT NULL,
	"user_agent" text,
	"method" text NOT NULL,
	"result" text NOT NULL,
	"api_key_id" integer,
	"api_key_name" text
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "client_ip" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "sign_in_attempts" ADD CONSTRAINT "sign_in_attempts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sign_in_attempts_account" ON "sign_in_attempts" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "sign_in_attempts_created" ON "sign_in_attempts" USING btree ("created_at");--> statement-breakpoint
-- Row-level security for the sign-in history (issue #28 "Sessions"), as two_factors (0046): a tenant
-- transaction reaches the rows of the accounts it can see, the accounts table's own policy deciding.
-- Written by the sign-in service on the owner connection.
ALTER TABLE sign_in_attempts ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY account_visible ON sign_in_attempts USING (EXISTS (SELECT 1 FROM accounts WHERE accounts.id = sign_in_attempts.account_id)) WITH CHECK (EXISTS (SELECT 1 FROM accounts WHERE accounts.id = sign_in_attempts.account_id));
