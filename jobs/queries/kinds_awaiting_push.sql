with recursive k(kind) as (
    (select kind from jobs where dispatched_at is null and state in ('queued', 'retrying') order by kind limit 1)
    union all
    select (select kind from jobs where dispatched_at is null and state in ('queued', 'retrying') and kind > k.kind order by kind limit 1)
      from k where k.kind is not null)
select kind from k where kind is not null
