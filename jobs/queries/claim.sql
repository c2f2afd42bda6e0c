update jobs j
   set state = 'running', attempts = j.attempts + 1, locked_by = $1,
       lease_until = now() + t.lease_ms * interval '1 millisecond',
       started_at = coalesce(j.started_at, now()), updated_at = now()
  from unnest($2::uuid[], $3::text[], $4::float8[]) as t(id, kind, lease_ms)
 where j.id = t.id and j.kind = t.kind
   and (j.state in ('queued', 'retrying') and j.run_at <= now() + interval '1 second') is true
returning j.id, j.kind, j.payload, j.attempts, j.max_attempts, j.caused_by
