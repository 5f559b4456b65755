ALTER TABLE "locks" ADD COLUMN "common_door" text;--> statement-breakpoint
CREATE INDEX "locks_tenant_common_door" ON "locks" USING btree ("tenant_id","building","floor") WHERE common_door is not null;--> statement-breakpoint
ALTER TABLE "locks" ADD CONSTRAINT "locks_common_door" CHECK ("locks"."common_door" in ('building', 'floor'));