CREATE SEQUENCE "public"."count_sheet_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "count_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "count_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"org_id" varchar(40) NOT NULL,
	"line_id" varchar(40) NOT NULL,
	"account_id" varchar(40) NOT NULL,
	"qty" numeric(15, 4) NOT NULL,
	"round" smallint NOT NULL,
	"ts" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "count_lines" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"sheet_id" varchar(40) NOT NULL,
	"location_id" varchar(40) NOT NULL,
	"stock_record_id" varchar(40),
	"item_id" varchar(40) NOT NULL,
	"stock_label" varchar(40),
	"lot" varchar(60),
	"serial" varchar(60),
	"found" boolean DEFAULT false NOT NULL,
	"not_found" boolean DEFAULT false NOT NULL,
	"anchor_movement_id" bigint,
	"system_qty" numeric(15, 4) DEFAULT '0' NOT NULL,
	"counted" numeric(15, 4) DEFAULT '0' NOT NULL,
	"status" varchar(10) DEFAULT 'counted' NOT NULL,
	"round" smallint DEFAULT 1 NOT NULL,
	"disputed" boolean DEFAULT false NOT NULL,
	"serial_over_1" boolean DEFAULT false NOT NULL,
	"over_threshold" boolean DEFAULT false NOT NULL,
	"counted_by" varchar(40),
	"previous_counter" varchar(40),
	"counted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"posted_movement_id" bigint,
	CONSTRAINT "count_lines_status" CHECK ("count_lines"."status" in ('counted', 'recount', 'accepted', 'excluded', 'posted')),
	CONSTRAINT "count_lines_counted" CHECK ("count_lines"."counted" >= 0)
);
--> statement-breakpoint
CREATE TABLE "count_sheet_locations" (
	"org_id" varchar(40) NOT NULL,
	"sheet_id" varchar(40) NOT NULL,
	"location_id" varchar(40) NOT NULL,
	"visited_movement_id" bigint,
	"visited_by" varchar(40),
	CONSTRAINT "count_sheet_locations_pk" PRIMARY KEY("sheet_id","location_id")
);
--> statement-breakpoint
CREATE TABLE "count_sheets" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"code" varchar(20) NOT NULL,
	"warehouse_id" varchar(40) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"state" varchar(10) DEFAULT 'open' NOT NULL,
	"blind" boolean DEFAULT true NOT NULL,
	"assignees" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" varchar(40) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"posted_at" timestamp with time zone,
	"_rev" integer DEFAULT 1 NOT NULL,
	"audit" jsonb NOT NULL,
	CONSTRAINT "count_sheets_state" CHECK ("count_sheets"."state" in ('open', 'counting', 'review', 'posted', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "count_thresholds" (
	"org_id" varchar(40) NOT NULL,
	"warehouse_id" varchar(40) PRIMARY KEY NOT NULL,
	"max_qty" numeric(15, 4),
	"max_pct" numeric(10, 2),
	"audit" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "count_entries" ADD CONSTRAINT "count_entries_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_entries" ADD CONSTRAINT "count_entries_line_id_count_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."count_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_lines" ADD CONSTRAINT "count_lines_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_lines" ADD CONSTRAINT "count_lines_sheet_id_count_sheets_id_fk" FOREIGN KEY ("sheet_id") REFERENCES "public"."count_sheets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_lines" ADD CONSTRAINT "count_lines_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_lines" ADD CONSTRAINT "count_lines_stock_record_id_stock_records_id_fk" FOREIGN KEY ("stock_record_id") REFERENCES "public"."stock_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_lines" ADD CONSTRAINT "count_lines_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_sheet_locations" ADD CONSTRAINT "count_sheet_locations_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_sheet_locations" ADD CONSTRAINT "count_sheet_locations_sheet_id_count_sheets_id_fk" FOREIGN KEY ("sheet_id") REFERENCES "public"."count_sheets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_sheet_locations" ADD CONSTRAINT "count_sheet_locations_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_sheets" ADD CONSTRAINT "count_sheets_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_sheets" ADD CONSTRAINT "count_sheets_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_thresholds" ADD CONSTRAINT "count_thresholds_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_thresholds" ADD CONSTRAINT "count_thresholds_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "count_entries_line" ON "count_entries" USING btree ("line_id");--> statement-breakpoint
CREATE INDEX "count_lines_sheet" ON "count_lines" USING btree ("sheet_id","location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "count_lines_sheet_record" ON "count_lines" USING btree ("sheet_id","stock_record_id") WHERE "count_lines"."stock_record_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "count_lines_sheet_label" ON "count_lines" USING btree ("sheet_id","stock_label") WHERE "count_lines"."stock_record_id" is null and "count_lines"."stock_label" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "count_lines_sheet_serial" ON "count_lines" USING btree ("sheet_id","item_id","serial") WHERE "count_lines"."serial" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "count_sheets_org_code" ON "count_sheets" USING btree ("org_id","code");--> statement-breakpoint
CREATE INDEX "count_sheets_org_created" ON "count_sheets" USING btree ("org_id","created_at");