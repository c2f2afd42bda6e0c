-- A job's row is written four times in its life: the insert, the push's mark, the claim and the
-- outcome. None of those updates can be HOT (each changes a column that a partial index's
-- predicate names), and a new version goes on its row's page only if it fits there. Packed full
-- (the default), every claim and outcome of a drain appended its version at the end of the table:
-- the statements queued for the relation's extension lock and each version landed on a page of
-- its own. Rows filled to 30 % leave room for the versions of the rows on the page (a row grows
-- from about 140 to 300 bytes; page pruning frees the dead versions as it goes), so each job's
-- life stays on its page. Only pages written from now on are affected.
alter table jobs set (fillfactor = 30);
