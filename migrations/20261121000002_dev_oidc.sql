-- state of the development sign-in issuer (only used when APP_ENV=development).
-- its signing key is generated once and kept here, so tokens survive a restart.
create table dev_oidc_keys (
    kid             text primary key,
    private_key_pem text not null,
    created_at      timestamptz not null default now()
);

-- refresh tokens are opaque; only their sha-256 is stored. a token is used once (rotation).
-- the session's id and sign-in time carry over to refreshed tokens, as clients check them.
create table dev_oidc_refresh_tokens (
    token_hash text primary key,
    user_id    text not null,
    email      text not null,
    client_id  text not null,
    scope      text not null,
    session_id text not null,
    auth_time  bigint not null,
    expires_at timestamptz not null,
    revoked_at timestamptz,
    created_at timestamptz not null default now()
);

create index dev_oidc_refresh_tokens_user_idx on dev_oidc_refresh_tokens (user_id);
