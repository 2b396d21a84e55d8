CREATE TABLE "order_backorders" (
	"line_id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"backorder_line_id" varchar(40) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_backorders" ADD CONSTRAINT "order_backorders_line_id_order_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."order_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_backorders" ADD CONSTRAINT "order_backorders_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_backorders" ADD CONSTRAINT "order_backorders_backorder_line_id_order_lines_id_fk" FOREIGN KEY ("backorder_line_id") REFERENCES "public"."order_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_backorders_backorder_line" ON "order_backorders" USING btree ("backorder_line_id");