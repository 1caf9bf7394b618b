-- CreateIndex
-- A GiST trigram index serves nearest-name ordering (`<<->`), which the GIN index cannot: search
-- hints take the closest names straight from the index instead of scoring every match.
CREATE INDEX "products_name_trgm_gist_idx" ON "products" USING GIST ("name" gist_trgm_ops);
