CREATE TABLE "badge_pins" (
	"account_id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"pin_hash" text NOT NULL,
	"audit" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kiosk_sessions" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"site_id" varchar(40) NOT NULL,
	"kiosk_account_id" varchar(40) NOT NULL,
	"account_id" varchar(40) NOT NULL,
	"device_id" varchar(40),
	"token_hash" varchar(64) NOT NULL,
	"timeout_secs" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" varchar(12)
);
--> statement-breakpoint
CREATE TABLE "punch_guards" (
	"account_id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"last_punch_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "punches" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"site_id" varchar(40) NOT NULL,
	"account_id" varchar(40) NOT NULL,
	"kind" varchar(5) NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"server_ts" timestamp with time zone DEFAULT now() NOT NULL,
	"client_ts" timestamp with time zone,
	"device_id" varchar(40),
	"clock_account_id" varchar(40),
	"photo_media_id" varchar(40),
	"source" varchar(12) NOT NULL,
	"status" varchar(8) DEFAULT 'valid' NOT NULL,
	"replaces_id" varchar(40),
	"reason" text,
	"approved_by" varchar(40),
	"audit" jsonb NOT NULL,
	CONSTRAINT "punches_kind" CHECK ("punches"."kind" in ('in', 'out', 'void')),
	CONSTRAINT "punches_source" CHECK ("punches"."source" in ('clock', 'missed', 'correction')),
	CONSTRAINT "punches_status" CHECK ("punches"."status" in ('valid', 'pending'))
);
--> statement-breakpoint
ALTER TABLE "badge_pins" ADD CONSTRAINT "badge_pins_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "badge_pins" ADD CONSTRAINT "badge_pins_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kiosk_sessions" ADD CONSTRAINT "kiosk_sessions_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kiosk_sessions" ADD CONSTRAINT "kiosk_sessions_kiosk_account_id_accounts_id_fk" FOREIGN KEY ("kiosk_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kiosk_sessions" ADD CONSTRAINT "kiosk_sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punch_guards" ADD CONSTRAINT "punch_guards_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punch_guards" ADD CONSTRAINT "punch_guards_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punches" ADD CONSTRAINT "punches_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punches" ADD CONSTRAINT "punches_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punches" ADD CONSTRAINT "punches_photo_media_id_media_id_fk" FOREIGN KEY ("photo_media_id") REFERENCES "public"."media"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "punches" ADD CONSTRAINT "punches_replaces_fk" FOREIGN KEY ("replaces_id") REFERENCES "public"."punches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "kiosk_sessions_token" ON "kiosk_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "kiosk_sessions_kiosk" ON "kiosk_sessions" USING btree ("kiosk_account_id");--> statement-breakpoint
CREATE INDEX "punches_org_account_at" ON "punches" USING btree ("org_id","account_id","at");--> statement-breakpoint
CREATE INDEX "punches_org_at" ON "punches" USING btree ("org_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "punches_replaces" ON "punches" USING btree ("replaces_id");--> statement-breakpoint
-- Written by hand (drizzle-kit does not model triggers): punches are append-only; a correction is a new row.
CREATE FUNCTION "punches_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'Punches are append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "punches_no_change" BEFORE UPDATE OR DELETE ON "punches" FOR EACH ROW EXECUTE FUNCTION "punches_append_only"();--> statement-breakpoint
CREATE TRIGGER "punches_no_truncate" BEFORE TRUNCATE ON "punches" FOR EACH STATEMENT EXECUTE FUNCTION "punches_append_only"();
