-- the staff CMS, part 2: organisations as the CMS manages them (spec §2.3 Organisaties, §3
-- "Organisation level"). A main organisation and its levels (sub-organisations) get a type, a
-- product type and a term; the term is kept on the main organisation (valid_date_main_level) or
-- per level. Each level has its users: accounts (organisation_members) and addresses without an
-- account yet (organisation_level_emails); each of them has an organisation subscription of that
-- level whose term follows the level's.

alter table organisations
    add column type                  text not null default 'PRACTICE_GROUP'
        check (type in ('CENTRE', 'COUNTRY', 'POST', 'PRACTICE', 'PRACTICE_GROUP', 'PRACTITIONER', 'REGIONAL', 'CARE_GROUP')),
    add column product_type          text check (product_type in ('ION', 'USER')),
    add column start_date            date,
    -- 1970-01-01 when the dates are kept per level (spec §2.3)
    add column valid_until           date not null default date '1970-01-01',
    add column valid_date_main_level boolean not null default false,
    add column is_active             boolean not null default true,
    add column updated_at            timestamptz not null default now();

alter table organisation_levels
    add constraint organisation_levels_type_check
        check (type in ('CENTRE', 'COUNTRY', 'POST', 'PRACTICE', 'PRACTICE_GROUP', 'PRACTITIONER', 'REGIONAL', 'CARE_GROUP')),
    add column product_type text check (product_type in ('ION', 'USER')),
    add column start_date   date,
    add column valid_until  date,
    add column is_active    boolean not null default true,
    add column his_id       uuid references his (id) on delete restrict,
    add column updated_at   timestamptz not null default now();
create index organisation_levels_his_idx on organisation_levels (his_id) where his_id is not null;

-- addresses added to a level that have no account yet; linked when that address first signs in
create table organisation_level_emails (
    level_id   uuid not null references organisation_levels (id) on delete cascade,
    email      text not null check (email = lower(email) and email <> '' and email !~ '\s'),
    is_admin   boolean not null default false,
    created_at timestamptz not null default now(),
    primary key (level_id, email)
);
create index organisation_level_emails_email_idx on organisation_level_emails (email);

create index organisations_name_idx on organisations (lower(name), id);
create index organisation_subscriptions_order_idx on organisation_subscriptions (description, valid_until desc);
