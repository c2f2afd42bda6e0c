-- users: one row per person who signed in, keyed by the identity provider's subject (`sub`).
-- the row is created on the user's first authenticated call; e-mail and login name follow the token.
create table users (
    id                 text primary key,
    email              text not null,
    preferred_username text not null,
    -- the name the user asked to be addressed by (onboarding profile); null until given
    preferred_name     text,
    -- helper users (set by staff)
    is_helper          boolean not null default false,
    created_at         timestamptz not null default now(),
    updated_at         timestamptz not null default now()
);

create index users_created_at_idx on users (created_at desc);
create index users_email_idx on users (lower(email));

-- which user accepted which version of the user agreement, and when.
create table agreement_acceptances (
    user_id     text not null references users (id) on delete cascade,
    version     integer not null,
    accepted_at timestamptz not null default now(),
    primary key (user_id, version)
);
