-- Placeholder: number 7 belongs to the storage branch's migration (compressed states). Delete this
-- file when that branch is merged; it only keeps the numbering gapless for 0008_community.sql.
SELECT 1;
