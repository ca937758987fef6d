DROP INDEX "requests_user_id_updated_at_index";--> statement-breakpoint
DROP INDEX "requests_user_id_category_id_index";--> statement-breakpoint
CREATE INDEX "requests_user_id_list_order_index" ON "requests" USING btree ("user_id","updated_at","created_at","id");--> statement-breakpoint
CREATE INDEX "requests_user_id_category_id_list_order_index" ON "requests" USING btree ("user_id","category_id","updated_at","created_at","id");