CREATE TABLE "one_time_codes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "one_time_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"session_id" integer,
	"purpose" text NOT NULL,
	"phone" text NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "one_time_codes_purpose" CHECK ("one_time_codes"."purpose" in ('enroll', 'verify'))
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "mfa_token_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_mfa_phone" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mfa_declined_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "help_topics" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "contact_phone" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "preferred_contact_method" text;--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD CONSTRAINT "one_time_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD CONSTRAINT "one_time_codes_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "one_time_codes_session_id_index" ON "one_time_codes" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "one_time_codes_user_id_created_at_index" ON "one_time_codes" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_mfa_token_hash_unique" UNIQUE("mfa_token_hash");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_preferred_contact_method" CHECK ("users"."preferred_contact_method" in ('email', 'phone', 'text'));