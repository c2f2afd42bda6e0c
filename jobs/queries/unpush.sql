update jobs set dispatched_at = null, task_id = null
 where id = any($1) and (dispatched_at is not null and state in ('queued', 'retrying')) is true
returning id
