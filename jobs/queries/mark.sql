update jobs j
   set dispatched_at = now(), dispatch_count = j.dispatch_count + 1, task_id = t.task_id
  from unnest($1::uuid[], $2::text[]) as t(id, task_id),
       (select set_config('synchronous_commit', 'off', true)) as async_commit
 where j.id = t.id and (j.dispatched_at is null and j.state in ('queued', 'retrying')) is true
returning j.id, j.kind, j.run_at, j.dispatch_count, j.task_id as "task_id!"
