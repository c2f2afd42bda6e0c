-- consults: a practitioner's consult with its content (transcript, note, template), owned by one
-- user. medical data: every row carries the moment it must be gone (expires_at), and the hourly
-- purge_consults sweep deletes it then, with its sessions and summaries.
create table consults (
    id         text primary key,
    user_id    text not null references users (id) on delete cascade,
    -- app: made in the app; electronic: an e-consult; record_system: created by the record system
    source     text not null default 'app' check (source in ('app', 'electronic', 'record_system')),
    content    jsonb not null default '{}'::jsonb,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    expires_at timestamptz not null
);

create index consults_user_idx on consults (user_id, created_at desc);
create index consults_expires_idx on consults (expires_at);

-- live audio sessions: the websocket /ws/speech/{service}/{id} continues one of these. the
-- transcript itself lives in Redis while the session runs.
create table consult_sessions (
    id         text primary key,
    user_id    text not null references users (id) on delete cascade,
    consult_id text not null references consults (id) on delete cascade,
    -- opened through the new model (/api/consult/beta)
    new_model  boolean not null default false,
    created_at timestamptz not null default now(),
    -- refused after this; pulled forward to the resume grace when the socket drops
    expires_at timestamptz not null
);

create index consult_sessions_user_idx on consult_sessions (user_id);
create index consult_sessions_expires_idx on consult_sessions (expires_at);

-- what a summarise_consult job works on: the request with the transcript as it was when the
-- clinician pressed Samenvatten, and the note it produced.
create table summaries (
    id          text primary key,
    user_id     text not null references users (id) on delete cascade,
    consult_id  text references consults (id) on delete cascade,
    session_id  text,
    -- route that asked for it: ws, v1, v1-examples, v2, v2-turbo, electronic
    route       text not null,
    request     jsonb not null,
    result      jsonb,
    engine      text,
    created_at  timestamptz not null default now(),
    finished_at timestamptz,
    expires_at  timestamptz not null
);

create index summaries_user_idx on summaries (user_id, created_at desc);
create index summaries_consult_idx on summaries (consult_id);
create index summaries_expires_idx on summaries (expires_at);
