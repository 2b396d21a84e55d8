CREATE TABLE "count_frequencies" (
	"scope_id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"warehouse_id" varchar(40) NOT NULL,
	"location_id" varchar(40),
	"days" integer NOT NULL,
	"audit" jsonb NOT NULL,
	CONSTRAINT "count_frequencies_days" CHECK ("count_frequencies"."days" > 0)
);
--> statement-breakpoint
ALTER TABLE "count_frequencies" ADD CONSTRAINT "count_frequencies_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_frequencies" ADD CONSTRAINT "count_frequencies_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "count_frequencies" ADD CONSTRAINT "count_frequencies_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "count_frequencies_warehouse" ON "count_frequencies" USING btree ("warehouse_id");