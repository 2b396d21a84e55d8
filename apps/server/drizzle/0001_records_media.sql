CREATE TABLE "media" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"site_id" varchar(40),
	"content_type" varchar(80) NOT NULL,
	"bytes" "bytea" NOT NULL,
	"width" integer,
	"height" integer,
	"purpose" varchar(40) DEFAULT 'photo' NOT NULL,
	"audit" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "records" (
	"org_id" varchar(40) NOT NULL,
	"type" varchar(60) NOT NULL,
	"_id" varchar(120) NOT NULL,
	"_rev" integer DEFAULT 1 NOT NULL,
	"data" jsonb NOT NULL,
	"audit" jsonb NOT NULL,
	CONSTRAINT "records_org_id_type__id_pk" PRIMARY KEY("org_id","type","_id")
);
--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "records" ADD CONSTRAINT "records_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_org" ON "media" USING btree ("org_id");