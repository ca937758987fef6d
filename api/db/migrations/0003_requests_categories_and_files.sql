CREATE TABLE "blobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer NOT NULL,
	"key" text NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"byte_size" integer NOT NULL,
	"checksum" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uploaded_at" timestamp with time zone,
	"request_id" uuid,
	"request_update_id" uuid,
	CONSTRAINT "blobs_key_unique" UNIQUE("key"),
	CONSTRAINT "blobs_byte_size" CHECK ("blobs"."byte_size" between 0 and 26214400),
	CONSTRAINT "blobs_attached_whole" CHECK (("blobs"."request_id" is null) = ("blobs"."request_update_id" is null)),
	CONSTRAINT "blobs_attached_only_uploaded" CHECK ("blobs"."request_id" is null or "blobs"."uploaded_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "request_categories" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"icon" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "request_categories_icon" CHECK ("request_categories"."icon" in ('home', 'travel', 'health', 'finance', 'family', 'errands'))
);
--> statement-breakpoint
CREATE TABLE "request_updates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"author" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"status" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_updates_kind" CHECK ("request_updates"."kind" in ('created', 'status_changed', 'note')),
	CONSTRAINT "request_updates_author" CHECK ("request_updates"."author" in ('member', 'concierge')),
	CONSTRAINT "request_updates_status_given" CHECK (("request_updates"."kind" = 'status_changed') = ("request_updates"."status" is not null))
);
--> statement-breakpoint
CREATE TABLE "requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer NOT NULL,
	"category_id" text NOT NULL,
	"title" text NOT NULL,
	"details" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'submitted' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "requests_status" CHECK ("requests"."status" in ('submitted', 'in_progress', 'waiting_on_member', 'completed', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "blobs" ADD CONSTRAINT "blobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blobs" ADD CONSTRAINT "blobs_request_id_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blobs" ADD CONSTRAINT "blobs_request_update_id_request_updates_id_fk" FOREIGN KEY ("request_update_id") REFERENCES "public"."request_updates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_updates" ADD CONSTRAINT "request_updates_request_id_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_category_id_request_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."request_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "blobs_request_id_index" ON "blobs" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "blobs_unattached_created_at_index" ON "blobs" USING btree ("created_at") WHERE "blobs"."request_id" is null;--> statement-breakpoint
CREATE INDEX "blobs_user_id_index" ON "blobs" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "request_updates_request_id_created_at_index" ON "request_updates" USING btree ("request_id","created_at");--> statement-breakpoint
CREATE INDEX "requests_user_id_updated_at_index" ON "requests" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE INDEX "requests_user_id_category_id_index" ON "requests" USING btree ("user_id","category_id");--> statement-breakpoint
INSERT INTO "request_categories" ("id", "name", "description", "icon", "position") VALUES
('home-and-moving', 'Home and moving', 'Movers, repairs, cleaners and utilities, found and booked when you move or fix up your home.', 'home', 1),
('travel', 'Travel', 'Flights, hotels and itineraries planned and booked, for work or for a break.', 'travel', 2),
('health-and-wellness', 'Health and wellness', 'Find a doctor, book appointments, and sort out prescriptions and claims.', 'health', 3),
('finance-and-legal', 'Finance and legal', 'Bills, taxes, insurance questions, and a lawyer or notary when you need one.', 'finance', 4),
('family-and-care', 'Family and care', 'Childcare, elder care, tutoring and pet sitting, found and arranged.', 'family', 5),
('everyday-errands', 'Everyday errands', 'Gifts, reservations, deliveries, returns and the to-dos you have no time for.', 'errands', 6);
