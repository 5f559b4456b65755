ALTER TABLE "stay_doors" ADD COLUMN "card_credential_id" integer;--> statement-breakpoint
ALTER TABLE "stay_guests" ADD COLUMN "card_number" text;