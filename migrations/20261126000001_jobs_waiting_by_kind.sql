-- The relay asks which kinds have rows waiting for a push and takes each kind's oldest; the stall
-- gauge asks each kind's oldest waiting row. Indexed by (kind, run_at), each is a probe per kind
-- (a skip scan over the kinds) instead of a scan of every waiting row, which on a backlog of tens
-- of thousands of jobs ran several times a second.
drop index jobs_undispatched_idx;
create index jobs_undispatched_idx on jobs (kind, run_at) where dispatched_at is null and state in ('queued', 'retrying');
