CREATE TABLE "order_lines" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"order_id" varchar(40) NOT NULL,
	"line_no" integer NOT NULL,
	"item_id" varchar(40) NOT NULL,
	"qty" numeric(15, 4) NOT NULL,
	"qty_picked" numeric(15, 4) DEFAULT '0' NOT NULL,
	"qty_short" numeric(15, 4) DEFAULT '0' NOT NULL,
	"qty_shipped" numeric(15, 4) DEFAULT '0' NOT NULL,
	"status" varchar(10) DEFAULT 'open' NOT NULL,
	"short_reason" text,
	"claimed_by" varchar(40),
	"skip_seq" integer DEFAULT 0 NOT NULL,
	"_rev" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "order_lines_status" CHECK ("order_lines"."status" in ('open', 'picked', 'short', 'cancelled')),
	CONSTRAINT "order_lines_qty" CHECK ("order_lines"."qty" > 0),
	CONSTRAINT "order_lines_not_over" CHECK ("order_lines"."qty_picked" >= 0 and "order_lines"."qty_short" >= 0 and "order_lines"."qty_picked" + "order_lines"."qty_short" <= "order_lines"."qty")
);
--> statement-breakpoint
CREATE TABLE "order_picks" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"order_id" varchar(40) NOT NULL,
	"line_id" varchar(40) NOT NULL,
	"stock_record_id" varchar(40) NOT NULL,
	"qty" numeric(15, 4) NOT NULL,
	"from_location_id" varchar(40) NOT NULL,
	"to_location_id" varchar(40) NOT NULL,
	"state" varchar(10) DEFAULT 'picked' NOT NULL,
	"package_id" varchar(40),
	"account_id" varchar(40) NOT NULL,
	"ts" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_picks_state" CHECK ("order_picks"."state" in ('picked', 'unpicked', 'shipped', 'issued'))
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"type" varchar(3) NOT NULL,
	"number" varchar(60) NOT NULL,
	"status" varchar(40) NOT NULL,
	"warehouse_id" varchar(40) NOT NULL,
	"customer" text,
	"due_date" date,
	"priority" integer DEFAULT 0 NOT NULL,
	"notes" text,
	"staging_location_id" varchar(40),
	"department" varchar(20),
	"claimed_by" varchar(40),
	"_rev" integer DEFAULT 1 NOT NULL,
	"audit" jsonb NOT NULL,
	CONSTRAINT "orders_type" CHECK ("orders"."type" in ('sos', 'sms', 'rst', 'wos', 'mos'))
);
--> statement-breakpoint
CREATE TABLE "packages" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"order_id" varchar(40) NOT NULL,
	"package_no" varchar(80) NOT NULL,
	"type" varchar(40) DEFAULT 'box' NOT NULL,
	"weight" numeric(15, 4),
	"length" numeric(15, 4),
	"width" numeric(15, 4),
	"height" numeric(15, 4),
	"carrier" varchar(60),
	"service" varchar(60),
	"tracking" varchar(100),
	"status" varchar(10) DEFAULT 'open' NOT NULL,
	"shipped_at" timestamp with time zone,
	"_rev" integer DEFAULT 1 NOT NULL,
	"audit" jsonb NOT NULL,
	CONSTRAINT "packages_status" CHECK ("packages"."status" in ('open', 'shipped')),
	CONSTRAINT "packages_measures" CHECK (coalesce("packages"."weight", 0) >= 0 and coalesce("packages"."length", 0) >= 0 and coalesce("packages"."width", 0) >= 0 and coalesce("packages"."height", 0) >= 0)
);
--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_picks" ADD CONSTRAINT "order_picks_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_picks" ADD CONSTRAINT "order_picks_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_picks" ADD CONSTRAINT "order_picks_line_id_order_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."order_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_picks" ADD CONSTRAINT "order_picks_stock_record_id_stock_records_id_fk" FOREIGN KEY ("stock_record_id") REFERENCES "public"."stock_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_picks" ADD CONSTRAINT "order_picks_from_location_id_locations_id_fk" FOREIGN KEY ("from_location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_picks" ADD CONSTRAINT "order_picks_to_location_id_locations_id_fk" FOREIGN KEY ("to_location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_staging_location_id_locations_id_fk" FOREIGN KEY ("staging_location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages" ADD CONSTRAINT "packages_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages" ADD CONSTRAINT "packages_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_lines_order_line_no" ON "order_lines" USING btree ("order_id","line_no");--> statement-breakpoint
CREATE INDEX "order_lines_item" ON "order_lines" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "order_picks_line" ON "order_picks" USING btree ("line_id");--> statement-breakpoint
CREATE INDEX "order_picks_order" ON "order_picks" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_picks_stock_active" ON "order_picks" USING btree ("stock_record_id") WHERE "order_picks"."state" = 'picked';--> statement-breakpoint
CREATE UNIQUE INDEX "orders_org_type_number" ON "orders" USING btree ("org_id","type","number");--> statement-breakpoint
CREATE INDEX "orders_org_number" ON "orders" USING btree ("org_id","number");--> statement-breakpoint
CREATE INDEX "orders_org_status" ON "orders" USING btree ("org_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "packages_org_package_no" ON "packages" USING btree ("org_id","package_no");--> statement-breakpoint
CREATE INDEX "packages_order" ON "packages" USING btree ("order_id");