CREATE SEQUENCE "public"."stock_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"org_id" varchar(40) NOT NULL,
	"key" varchar(100) NOT NULL,
	"call" varchar(60) NOT NULL,
	"request_hash" varchar(64) NOT NULL,
	"response" jsonb NOT NULL,
	"account_id" varchar(40) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_org_key" PRIMARY KEY("org_id","key")
);
--> statement-breakpoint
CREATE TABLE "item_barcodes" (
	"org_id" varchar(40) NOT NULL,
	"barcode" varchar(100) NOT NULL,
	"item_id" varchar(40) NOT NULL,
	CONSTRAINT "item_barcodes_org_barcode" PRIMARY KEY("org_id","barcode")
);
--> statement-breakpoint
CREATE TABLE "items" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"part_number" varchar(60) NOT NULL,
	"description" text NOT NULL,
	"uom" varchar(10) DEFAULT 'EA' NOT NULL,
	"department" varchar(20),
	"tracking" varchar(10) DEFAULT 'none' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"_rev" integer DEFAULT 1 NOT NULL,
	"audit" jsonb NOT NULL,
	CONSTRAINT "items_tracking" CHECK ("items"."tracking" in ('none', 'lot', 'serial'))
);
--> statement-breakpoint
CREATE TABLE "locations" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"warehouse_id" varchar(40) NOT NULL,
	"code" varchar(40) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" varchar(20) DEFAULT 'bin' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"_rev" integer DEFAULT 1 NOT NULL,
	"audit" jsonb NOT NULL,
	CONSTRAINT "locations_id_warehouse" UNIQUE("id","warehouse_id")
);
--> statement-breakpoint
CREATE TABLE "movements" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "movements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" varchar(40) NOT NULL,
	"site_id" varchar(40),
	"stock_record_id" varchar(40) NOT NULL,
	"type" varchar(10) NOT NULL,
	"qty_delta" numeric(15, 4) NOT NULL,
	"qty_after" numeric(15, 4) NOT NULL,
	"from_location_id" varchar(40),
	"to_location_id" varchar(40),
	"reason" text,
	"related_stock_record_id" varchar(40),
	"account_id" varchar(40) NOT NULL,
	"idempotency_key" varchar(100),
	"ts" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "movements_type" CHECK ("movements"."type" in ('receive', 'adjust', 'move', 'split', 'pick', 'unpick', 'pack', 'ship', 'issue', 'count')),
	CONSTRAINT "movements_qty_after" CHECK ("movements"."qty_after" >= 0)
);
--> statement-breakpoint
CREATE TABLE "stock_records" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"stock_id" varchar(40) NOT NULL,
	"item_id" varchar(40) NOT NULL,
	"warehouse_id" varchar(40) NOT NULL,
	"location_id" varchar(40) NOT NULL,
	"quantity" numeric(15, 4) NOT NULL,
	"condition_code" varchar(20),
	"lot" varchar(60),
	"serial" varchar(60),
	"cert_source" varchar(100),
	"received_date" date,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"_rev" integer DEFAULT 1 NOT NULL,
	"audit" jsonb NOT NULL,
	CONSTRAINT "stock_records_quantity" CHECK ("stock_records"."quantity" >= 0),
	CONSTRAINT "stock_records_serial_quantity" CHECK ("stock_records"."serial" is null or "stock_records"."quantity" <= 1)
);
--> statement-breakpoint
CREATE TABLE "warehouses" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"code" varchar(20) NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"_rev" integer DEFAULT 1 NOT NULL,
	"audit" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_barcodes" ADD CONSTRAINT "item_barcodes_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_barcodes" ADD CONSTRAINT "item_barcodes_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "movements" ADD CONSTRAINT "movements_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "movements" ADD CONSTRAINT "movements_stock_record_id_stock_records_id_fk" FOREIGN KEY ("stock_record_id") REFERENCES "public"."stock_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "movements" ADD CONSTRAINT "movements_from_location_id_locations_id_fk" FOREIGN KEY ("from_location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "movements" ADD CONSTRAINT "movements_to_location_id_locations_id_fk" FOREIGN KEY ("to_location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_records" ADD CONSTRAINT "stock_records_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_records" ADD CONSTRAINT "stock_records_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_records" ADD CONSTRAINT "stock_records_location_fk" FOREIGN KEY ("location_id","warehouse_id") REFERENCES "public"."locations"("id","warehouse_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warehouses" ADD CONSTRAINT "warehouses_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "item_barcodes_item" ON "item_barcodes" USING btree ("item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "items_org_part_number" ON "items" USING btree ("org_id","part_number");--> statement-breakpoint
CREATE UNIQUE INDEX "locations_warehouse_code" ON "locations" USING btree ("warehouse_id","code");--> statement-breakpoint
CREATE INDEX "locations_org_code" ON "locations" USING btree ("org_id","code");--> statement-breakpoint
CREATE INDEX "movements_stock_record" ON "movements" USING btree ("stock_record_id","id");--> statement-breakpoint
CREATE INDEX "movements_org_ts" ON "movements" USING btree ("org_id","ts");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_records_org_stock_id" ON "stock_records" USING btree ("org_id","stock_id");--> statement-breakpoint
CREATE INDEX "stock_records_item" ON "stock_records" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "stock_records_location" ON "stock_records" USING btree ("location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_records_item_serial" ON "stock_records" USING btree ("item_id","serial") WHERE "stock_records"."serial" is not null and "stock_records"."quantity" > 0;--> statement-breakpoint
CREATE UNIQUE INDEX "warehouses_org_code" ON "warehouses" USING btree ("org_id","code");--> statement-breakpoint
-- Written by hand (drizzle-kit does not model triggers): the movement ledger is append-only.
CREATE FUNCTION "movements_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'The movement ledger is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "movements_no_change" BEFORE UPDATE OR DELETE ON "movements" FOR EACH ROW EXECUTE FUNCTION "movements_append_only"();--> statement-breakpoint
CREATE TRIGGER "movements_no_truncate" BEFORE TRUNCATE ON "movements" FOR EACH STATEMENT EXECUTE FUNCTION "movements_append_only"();
