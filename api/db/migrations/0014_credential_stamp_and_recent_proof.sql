-- Tokens mailed before a credential event are refused after it (services/credential-stamp.ts).
ALTER TABLE "account_tokens" ADD COLUMN "credential_stamp" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "credential_stamp" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A session proved who holds it when it started; one started before this column counts from then.
ALTER TABLE "sessions" ADD COLUMN "proven_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "sessions" SET "proven_at" = "created_at";
