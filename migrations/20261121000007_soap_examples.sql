-- Personal SOEP examples: notes written the way a clinician wants theirs; the summariser uses
-- them (few-shot examples, style). Each belongs to one user.
create table soap_examples (
    id         uuid primary key,
    user_id    text not null references users (id) on delete cascade,
    subjective text not null default '',
    objective  text not null default '',
    evaluation text not null default '',
    plan       text not null default '',
    -- manual: added on /personalize; feedback: a generated note the clinician corrected
    source     text not null default 'manual' check (source in ('manual', 'feedback')),
    consult_id text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
);
create index soap_examples_user_idx on soap_examples (user_id, created_at);
