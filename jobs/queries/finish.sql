update jobs j
   set state = case
           when t.outcome = 'succeeded' then 'succeeded'
           when t.outcome = 'failed' then 'failed'
           when t.outcome = 'wait' then 'retrying'
           when j.attempts >= j.max_attempts then 'dead'
           else 'retrying' end,
       attempts = case when t.outcome = 'wait' then j.attempts - 1 else j.attempts end,
       result = coalesce(t.result, j.result),
       last_error = case when t.outcome = 'succeeded' then j.last_error else t.error end,
       run_at = case when t.outcome in ('retry', 'wait') then now() + t.backoff_ms * interval '1 millisecond' else j.run_at end,
       dispatched_at = null, task_id = null, locked_by = null, lease_until = null,
       finished_at = case when t.outcome in ('succeeded', 'failed') or (t.outcome = 'retry' and j.attempts >= j.max_attempts)
           then now() end,
       updated_at = now()
  from unnest($2::uuid[], $3::text[], $4::jsonb[], $5::text[], $6::float8[])
    as t(id, outcome, result, error, backoff_ms)
 where j.id = t.id and (j.state = 'running' and j.locked_by = $1) is true
returning j.id, j.state as "state: JobState"
