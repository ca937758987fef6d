CREATE TABLE "company_connections" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "company_connections_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"protocol" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"sign_in_required" boolean DEFAULT false NOT NULL,
	"trusted_two_step_values" text[] DEFAULT '{}'::text[] NOT NULL,
	"oidc_issuer" text,
	"oidc_client_id" text,
	"oidc_client_secret" text,
	"saml_idp_entity_id" text,
	"saml_sso_url" text,
	"saml_idp_certificates" text[],
	"saml_require_signed_response" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_connections_company_id_unique" UNIQUE("company_id"),
	CONSTRAINT "company_connections_protocol" CHECK ("company_connections"."protocol" in ('oidc', 'saml')),
	CONSTRAINT "company_connections_settings" CHECK (("company_connections"."protocol" = 'oidc' and "company_connections"."oidc_issuer" is not null and "company_connections"."oidc_client_id" is not null and "company_connections"."oidc_client_secret" is not null)
        or ("company_connections"."protocol" = 'saml' and "company_connections"."saml_idp_entity_id" is not null and "company_connections"."saml_sso_url" is not null and "company_connections"."saml_idp_certificates" is not null))
);
--> statement-breakpoint
CREATE TABLE "company_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"connection_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_domains_lower_case" CHECK ("company_domains"."domain" = lower("company_domains"."domain"))
);
--> statement-breakpoint
CREATE TABLE "company_identities" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "company_identities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"connection_id" integer NOT NULL,
	"subject" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_identities_connection_subject" UNIQUE("connection_id","subject"),
	CONSTRAINT "company_identities_user_connection" UNIQUE("user_id","connection_id")
);
--> statement-breakpoint
CREATE TABLE "company_sign_ins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"connection_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"redirect_url" text NOT NULL,
	"oidc_state" text,
	"oidc_nonce" text,
	"oidc_code_verifier" text,
	"saml_request_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"asserted_subject" text,
	"asserted_email" text,
	"asserted_given_name" text,
	"asserted_family_name" text,
	"asserted_two_step" boolean,
	"link_required" boolean DEFAULT false NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "company_sign_ins_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "company_sign_ins_saml_request_id_unique" UNIQUE("saml_request_id")
);
--> statement-breakpoint
CREATE TABLE "used_saml_assertions" (
	"connection_id" integer NOT NULL,
	"assertion_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "used_saml_assertions_connection_id_assertion_id_pk" PRIMARY KEY("connection_id","assertion_id")
);
--> statement-breakpoint
ALTER TABLE "company_connections" ADD CONSTRAINT "company_connections_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_domains" ADD CONSTRAINT "company_domains_connection_id_company_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."company_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_identities" ADD CONSTRAINT "company_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_identities" ADD CONSTRAINT "company_identities_connection_id_company_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."company_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_sign_ins" ADD CONSTRAINT "company_sign_ins_connection_id_company_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."company_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "used_saml_assertions" ADD CONSTRAINT "used_saml_assertions_connection_id_company_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."company_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "company_domains_connection_id_index" ON "company_domains" USING btree ("connection_id");--> statement-breakpoint
CREATE INDEX "company_sign_ins_expires_at_index" ON "company_sign_ins" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "used_saml_assertions_expires_at_index" ON "used_saml_assertions" USING btree ("expires_at");