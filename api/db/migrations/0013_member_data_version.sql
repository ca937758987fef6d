-- A version of everything a member's own pages show, bumped by the database whoever writes (the
-- API, a concierge, a sweeper, another server, an operator's SQL): the web tier serves a page it
-- kept while the version the session check reads is unchanged (docs/PRODUCT.md §14).
-- Statement-level triggers with transition tables, so that a bulk write bumps each member once.
ALTER TABLE "users" ADD COLUMN "data_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The user's own row: any real change (a no-op update leaves the version as it is).
CREATE FUNCTION "users_bump_data_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.data_version = OLD.data_version THEN
    NEW.data_version := OLD.data_version + 1;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "users_data_version" BEFORE UPDATE ON "users" FOR EACH ROW
  WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "users_bump_data_version"();--> statement-breakpoint
-- Rows with the member's id: requests, and files once attached (an unattached file shows nowhere).
CREATE FUNCTION "requests_bump_member_data_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "data_version" = "data_version" + 1
    WHERE "id" IN (SELECT "user_id" FROM "changed_rows");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "requests_inserted_data_version" AFTER INSERT ON "requests"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT
  EXECUTE FUNCTION "requests_bump_member_data_version"();--> statement-breakpoint
CREATE TRIGGER "requests_updated_data_version" AFTER UPDATE ON "requests"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT
  EXECUTE FUNCTION "requests_bump_member_data_version"();--> statement-breakpoint
CREATE TRIGGER "requests_deleted_data_version" AFTER DELETE ON "requests"
  REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT
  EXECUTE FUNCTION "requests_bump_member_data_version"();--> statement-breakpoint
CREATE FUNCTION "blobs_bump_member_data_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "data_version" = "data_version" + 1
    WHERE "id" IN (SELECT "user_id" FROM "changed_rows" WHERE "request_id" IS NOT NULL);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "blobs_inserted_data_version" AFTER INSERT ON "blobs"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT
  EXECUTE FUNCTION "blobs_bump_member_data_version"();--> statement-breakpoint
CREATE TRIGGER "blobs_updated_data_version" AFTER UPDATE ON "blobs"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT
  EXECUTE FUNCTION "blobs_bump_member_data_version"();--> statement-breakpoint
CREATE TRIGGER "blobs_deleted_data_version" AFTER DELETE ON "blobs"
  REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT
  EXECUTE FUNCTION "blobs_bump_member_data_version"();--> statement-breakpoint
-- Timeline entries: the member of their request.
CREATE FUNCTION "request_updates_bump_member_data_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "data_version" = "data_version" + 1
    WHERE "id" IN (
      SELECT "requests"."user_id" FROM "requests"
        JOIN "changed_rows" ON "changed_rows"."request_id" = "requests"."id"
    );
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "request_updates_inserted_data_version" AFTER INSERT ON "request_updates"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT
  EXECUTE FUNCTION "request_updates_bump_member_data_version"();--> statement-breakpoint
CREATE TRIGGER "request_updates_updated_data_version" AFTER UPDATE ON "request_updates"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT
  EXECUTE FUNCTION "request_updates_bump_member_data_version"();--> statement-breakpoint
CREATE TRIGGER "request_updates_deleted_data_version" AFTER DELETE ON "request_updates"
  REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT
  EXECUTE FUNCTION "request_updates_bump_member_data_version"();--> statement-breakpoint
-- A company's name or rule: its members.
CREATE FUNCTION "companies_bump_member_data_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "data_version" = "data_version" + 1
    WHERE "company_id" IN (SELECT "id" FROM "changed_rows");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "companies_updated_data_version" AFTER UPDATE ON "companies"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT
  EXECUTE FUNCTION "companies_bump_member_data_version"();--> statement-breakpoint
-- The categories every page lists: every member (they change by migration, if ever).
CREATE FUNCTION "request_categories_bump_data_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "data_version" = "data_version" + 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "request_categories_data_version" AFTER INSERT OR UPDATE OR DELETE
  ON "request_categories" FOR EACH STATEMENT
  EXECUTE FUNCTION "request_categories_bump_data_version"();
