-- the audit log of staff actions (NEN 7513): one entry per staff mutation or read of someone
-- else's personal data, written in the transaction of the change. Entries are append-only (the
-- trigger refuses UPDATE, DELETE and TRUNCATE) and hash-chained: each entry's hash covers its
-- fields and the previous entry's hash, so a changed or removed entry breaks the chain
-- (`api audit-verify`).
create table audit_log (
    -- 1, 2, 3, ... in the order of the chain (given under the chain's lock)
    id                       bigint primary key check (id >= 1),
    at                       timestamptz not null,
    -- who: the staff member
    actor_id                 text not null,
    actor_email              text not null,
    -- what: an action's code and the record it touched
    action                   text not null,
    subject_type             text not null,
    subject_id               text not null,
    -- whom it concerns
    concerns_user_id         text,
    concerns_organisation_id uuid,
    -- the changed fields, before and after (never consult text)
    changes                  jsonb not null default '{}',
    -- where from
    request_id               text,
    client_addr              text,
    -- the entry in Dutch, as the CMS shows it
    log                      text not null,
    prev_hash                bytea not null,
    hash                     bytea not null unique
);
create index audit_log_at_idx on audit_log (at desc, id desc);
create index audit_log_concerns_user_idx on audit_log (concerns_user_id) where concerns_user_id is not null;

create function audit_log_append_only() returns trigger language plpgsql as $$
begin
    raise exception 'the audit log is append-only (% refused)', tg_op;
end $$;
create trigger audit_log_append_only before update or delete on audit_log
    for each row execute function audit_log_append_only();
create trigger audit_log_no_truncate before truncate on audit_log
    for each statement execute function audit_log_append_only();
