-- the staff CMS, part 1: the HIS list (the practice's record system; part 2 manages the list), a
-- user's HIS, when a user was last seen (the 'Ingelogde gebruikers' tile), consults per day that
-- outlive the consults themselves (the charts), and the indexes the CMS's paged tables use.

create table his (
    id         uuid primary key,
    name       text not null check (name <> '' and name = btrim(name)),
    created_at timestamptz not null default now()
);
-- one HIS per name in any case
create unique index his_name_idx on his (lower(name));

insert into his (id, name) values
    ('7d1c4a1e-0000-4000-8000-000000000001', 'CGM Huisarts'),
    ('7d1c4a1e-0000-4000-8000-000000000002', 'Medicom'),
    ('7d1c4a1e-0000-4000-8000-000000000003', 'MicroHIS'),
    ('7d1c4a1e-0000-4000-8000-000000000004', 'Promedico-ASP');

alter table users
    -- a HIS cannot be deleted while users are linked to it (spec §5)
    add column his_id       uuid references his (id) on delete restrict,
    -- the last authenticated call, written at most every few minutes per user
    add column last_seen_at timestamptz;
create index users_his_idx on users (his_id) where his_id is not null;
create index users_last_seen_idx on users (last_seen_at) where last_seen_at is not null;
-- substring search on e-mail and id
create index users_search_idx on users using gin ((lower(email) || ' ' || lower(id)) gin_trgm_ops);

-- consults per day and source, counted when a consult is made; consults themselves are purged
-- after their retention, these counts stay.
create table consult_days (
    day    date not null,
    source text not null,
    n      integer not null default 0,
    primary key (day, source)
);

create function consult_days_count() returns trigger language plpgsql as $$
begin
    insert into consult_days (day, source, n)
    values ((new.created_at at time zone 'Europe/Amsterdam')::date, new.source, 1)
    on conflict (day, source) do update set n = consult_days.n + 1;
    return new;
end $$;

create trigger consults_count_day after insert on consults for each row execute function consult_days_count();

insert into consult_days (day, source, n)
select (created_at at time zone 'Europe/Amsterdam')::date, source, count(*) from consults group by 1, 2;

-- the CMS's tables, newest first, optionally by status
create index users_created_id_idx on users (created_at desc, id desc);
create index payments_created_idx on payments (created_at desc, id desc);
create index payments_status_created_idx on payments (status, created_at desc, id desc);
create index subscriptions_created_idx on subscriptions (created_at desc, id desc);
-- new paid subscriptions per day: first payments by the day they were paid
create index payments_first_paid_idx on payments (paid_at) where status = 'PAID' and is_first_payment;
-- the CMS's view of work that went wrong
create index jobs_problem_idx on jobs (updated_at desc) where state in ('retrying', 'failed', 'dead');
-- the bookkeeping job of a payment, for the Betalingen tab's progress
create index jobs_bookkeeping_payment_idx on jobs ((payload ->> 'paymentId'), created_at desc)
    where kind in ('create_contact', 'create_invoice', 'credit_invoice');
