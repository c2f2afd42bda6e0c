-- jobs: one row per background job; the source of truth for its state.
--
-- The row is inserted in the same transaction as the business change that causes the job. Redis
-- (apalis) only carries "run job <id>" messages: `dispatched_at` says a message was pushed, and the
-- relay pushes rows that have none (Redis was down, the process died between commit and push) or
-- whose message Redis lost.
create table jobs (
    id             uuid primary key,
    kind           text not null,
    -- queued: waiting to run; running: an attempt is under way; retrying: an attempt failed and
    -- another is planned at run_at; succeeded; failed: a permanent error, not retried;
    -- dead: every allowed attempt failed.
    state          text not null default 'queued'
                   check (state in ('queued', 'running', 'succeeded', 'retrying', 'failed', 'dead')),
    -- ids only: what the handler needs to find its data
    payload        jsonb not null default '{}',
    attempts       integer not null default 0,
    max_attempts   integer not null check (max_attempts > 0),
    last_error     text,
    result         jsonb,
    -- the user whose action caused the job; null for the scheduler's sweeps
    caused_by      text references users (id) on delete set null,
    -- enqueueing twice with the same key yields the first job
    dedupe_key     text,
    run_at         timestamptz not null default now(),
    -- the push of the current attempt's message to Redis
    dispatched_at  timestamptz,
    dispatch_count integer not null default 0,
    task_id        text,
    -- the worker running the current attempt, and until when it may
    locked_by      text,
    lease_until    timestamptz,
    created_at     timestamptz not null default now(),
    updated_at     timestamptz not null default now(),
    started_at     timestamptz,
    finished_at    timestamptz
);

-- the relay: rows waiting for a push, rows pushed but not started, attempts whose worker vanished
create index jobs_undispatched_idx on jobs (run_at) where dispatched_at is null and state in ('queued', 'retrying');
create index jobs_dispatched_idx on jobs (dispatched_at) where dispatched_at is not null and state in ('queued', 'retrying');
create index jobs_lease_idx on jobs (lease_until) where state = 'running';
-- the pruning sweep and the dead-jobs gauge
create index jobs_finished_idx on jobs (finished_at) where state in ('succeeded', 'failed', 'dead');
-- deleting a user sets caused_by to null
create index jobs_caused_by_idx on jobs (caused_by) where caused_by is not null;
-- only rows with a key are indexed: every state change of a row writes to each index it is in
create unique index jobs_dedupe_key_idx on jobs (dedupe_key) where dedupe_key is not null;

-- e-mail deliveries, so a job sends its message at most once, also when it is retried.
create table email_deliveries (
    job_id     uuid primary key references jobs (id) on delete cascade,
    -- sending: handed to the transport; sent: the transport accepted it
    state      text not null check (state in ('sending', 'sent')),
    recipient  text not null,
    message_id text not null,
    started_at timestamptz not null default now(),
    sent_at    timestamptz
);

-- the scheduler: the last tick of each sweep that was enqueued.
create table schedule_ticks (
    sweep        text primary key,
    last_tick_at timestamptz not null,
    updated_at   timestamptz not null default now()
);
