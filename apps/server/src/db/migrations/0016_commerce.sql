CREATE TABLE "orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"out_trade_no" text NOT NULL,
	"product_id" integer NOT NULL,
	"description" text NOT NULL,
	"amount_fen" integer NOT NULL,
	"refunded_fen" integer DEFAULT 0 NOT NULL,
	"trade_state" text DEFAULT 'NOTPAY' NOT NULL,
	"lock_ids" integer[] NOT NULL,
	"months" integer NOT NULL,
	"code_url" text,
	"expires_at" timestamp with time zone NOT NULL,
	"transaction_id" text,
	"success_time" timestamp with time zone,
	"service_applied" boolean DEFAULT false NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reconcile_after" timestamp with time zone DEFAULT now() + interval '30 seconds' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"name_zh" text NOT NULL,
	"name_en" text NOT NULL,
	"description_zh" text DEFAULT '' NOT NULL,
	"description_en" text DEFAULT '' NOT NULL,
	"price_fen" integer NOT NULL,
	"lock_count" integer NOT NULL,
	"months" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"order_id" bigint NOT NULL,
	"out_refund_no" text NOT NULL,
	"refund_id" text,
	"amount_fen" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'PROCESSING' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"success_time" timestamp with time zone,
	"reconcile_after" timestamp with time zone DEFAULT now() + interval '30 seconds' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "locks" ADD COLUMN "service_end_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_out_trade_no" ON "orders" USING btree ("out_trade_no");--> statement-breakpoint
CREATE INDEX "orders_tenant_created" ON "orders" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_open" ON "orders" USING btree ("reconcile_after") WHERE trade_state in ('NOTPAY', 'USERPAYING');--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_out_refund_no" ON "refunds" USING btree ("out_refund_no");--> statement-breakpoint
CREATE INDEX "refunds_order" ON "refunds" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "refunds_open" ON "refunds" USING btree ("reconcile_after") WHERE status = 'PROCESSING';