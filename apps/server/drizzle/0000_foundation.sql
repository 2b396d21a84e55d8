CREATE TABLE "account_perms" (
	"account_id" varchar(40) NOT NULL,
	"site_id" varchar(40) NOT NULL,
	"app_id" varchar(40) NOT NULL,
	"roles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"kiosk_acct" boolean DEFAULT false NOT NULL,
	"timeclock_acct" boolean DEFAULT false NOT NULL,
	"service_acct" boolean DEFAULT false NOT NULL,
	"audit" jsonb,
	CONSTRAINT "account_perms_account_id_site_id_app_id_pk" PRIMARY KEY("account_id","site_id","app_id")
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"user_name" varchar(100) NOT NULL,
	"password_hash" text,
	"first_name" text DEFAULT '' NOT NULL,
	"surnames" text DEFAULT '' NOT NULL,
	"email" text,
	"badge_code" varchar(64),
	"active" boolean DEFAULT true NOT NULL,
	"audit" jsonb
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"site_id" varchar(40),
	"account_id" varchar(40) NOT NULL,
	"ts" timestamp with time zone DEFAULT now() NOT NULL,
	"action" varchar(80) NOT NULL,
	"entity" varchar(80) NOT NULL,
	"entity_id" varchar(120) NOT NULL,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE TABLE "feature_access" (
	"site_id" varchar(40) NOT NULL,
	"app_id" varchar(40) NOT NULL,
	"role" varchar(40) NOT NULL,
	"feature" varchar(80) NOT NULL,
	"level" smallint,
	"audit" jsonb,
	CONSTRAINT "feature_access_site_id_app_id_role_feature_pk" PRIMARY KEY("site_id","app_id","role","feature")
);
--> statement-breakpoint
CREATE TABLE "organisations" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"audit" jsonb
);
--> statement-breakpoint
CREATE TABLE "revoked_tokens" (
	"jti" varchar(40) PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"org_id" varchar(40) NOT NULL,
	"name" varchar(40) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"built_in" boolean DEFAULT false NOT NULL,
	"audit" jsonb,
	CONSTRAINT "roles_org_id_name_pk" PRIMARY KEY("org_id","name")
);
--> statement-breakpoint
CREATE TABLE "server_keys" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"secret" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"account_id" varchar(40) NOT NULL,
	"site_id" varchar(40) NOT NULL,
	"app_id" varchar(40) NOT NULL,
	"prefs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"audit" jsonb
);
--> statement-breakpoint
CREATE TABLE "site_data" (
	"_id" varchar(40) PRIMARY KEY NOT NULL,
	"_rev" integer DEFAULT 1 NOT NULL,
	"site_id" varchar(40) NOT NULL,
	"section" varchar(20) NOT NULL,
	"data_id" varchar(35) NOT NULL,
	"data" jsonb NOT NULL,
	"audit" jsonb
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"org_id" varchar(40) NOT NULL,
	"name" text NOT NULL,
	"host_patterns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"trusted_domains" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"audit" jsonb
);
--> statement-breakpoint
CREATE TABLE "workstations" (
	"site_id" varchar(40) NOT NULL,
	"id" varchar(40) NOT NULL,
	"timeclock" boolean DEFAULT false NOT NULL,
	"kiosk" boolean DEFAULT false NOT NULL,
	"first_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"last_account_id" varchar(40),
	"audit" jsonb,
	CONSTRAINT "workstations_site_id_id_pk" PRIMARY KEY("site_id","id")
);
--> statement-breakpoint
ALTER TABLE "account_perms" ADD CONSTRAINT "account_perms_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_perms" ADD CONSTRAINT "account_perms_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feature_access" ADD CONSTRAINT "feature_access_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_data" ADD CONSTRAINT "site_data_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workstations" ADD CONSTRAINT "workstations_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_org_user_name" ON "accounts" USING btree ("org_id",lower("user_name"));--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_org_badge" ON "accounts" USING btree ("org_id","badge_code");--> statement-breakpoint
CREATE INDEX "audit_log_org_ts" ON "audit_log" USING btree ("org_id","ts");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_account_site_app" ON "sessions" USING btree ("account_id","site_id","app_id");--> statement-breakpoint
CREATE UNIQUE INDEX "site_data_key" ON "site_data" USING btree ("site_id","section","data_id");