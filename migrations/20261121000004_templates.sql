-- Organisations, as far as templates need them: main organisations, their levels
-- (sub-organisations such as a practice) and the users of each level. The staff CMS manages them
-- and adds its own columns (dates, HIS, subscriptions) later.
create table organisations (
    id         uuid primary key,
    name       text not null,
    agb_code   text,
    created_at timestamptz not null default now()
);

create table organisation_levels (
    id              uuid primary key,
    organisation_id uuid not null references organisations (id) on delete cascade,
    name            text not null,
    agb_code        text,
    type            text not null default 'PRACTICE',
    created_at      timestamptz not null default now()
);
create index organisation_levels_organisation_idx on organisation_levels (organisation_id);

create table organisation_members (
    level_id   uuid not null references organisation_levels (id) on delete cascade,
    user_id    text not null references users (id) on delete cascade,
    -- an admin may change and delete the templates shared with their level or organisation
    is_admin   boolean not null default false,
    created_at timestamptz not null default now(),
    primary key (level_id, user_id)
);
create index organisation_members_user_idx on organisation_members (user_id);

-- pg_trgm (a trusted extension) indexes the normalised search text for `like '%word%'`.
create extension if not exists pg_trgm;

-- Template entries: a reusable line of a SOEP note with its ICPC codes.
create table template_entries (
    id          uuid primary key,
    owner_id    text references users (id) on delete set null,
    title       text not null default '',
    text        text not null default '',
    description text not null default '',
    soep_type   text not null check (soep_type in
                    ('PLAN', 'OBJECTIVE', 'SUBJECTIVE', 'PLAN_TEXT', 'OBJECTIVE_TEXT', 'SUBJECTIVE_TEXT')),
    kind        text,
    -- PUBLIC: every user; PRIVATE: the owner and whoever template_permissions names
    visibility  text not null check (visibility in ('PUBLIC', 'PRIVATE')),
    -- ICPC codes, category letter plus number ('K86'), each once, in the order added
    codes       text[] not null default '{}',
    -- title, description and text in lower case without accents (written by the api)
    search      text not null default '',
    -- the title the same way, for a stable order
    sort_title  text not null default '',
    created_at  timestamptz not null default now(),
    updated_at  timestamptz not null default now()
);
create index template_entries_search_idx on template_entries using gin (search gin_trgm_ops);
create index template_entries_order_idx on template_entries (sort_title, id);
create index template_entries_owner_idx on template_entries (owner_id, sort_title, id);
create index template_entries_public_idx on template_entries (sort_title, id) where visibility = 'PUBLIC';
create index template_entries_codes_idx on template_entries using gin (codes);

-- Template groups: an ordered set of entries.
create table template_groups (
    id          uuid primary key,
    owner_id    text references users (id) on delete set null,
    title       text not null default '',
    description text not null default '',
    visibility  text not null check (visibility in ('PUBLIC', 'PRIVATE')),
    search      text not null default '',
    sort_title  text not null default '',
    created_at  timestamptz not null default now(),
    updated_at  timestamptz not null default now()
);
create index template_groups_search_idx on template_groups using gin (search gin_trgm_ops);
create index template_groups_order_idx on template_groups (sort_title, id);
create index template_groups_owner_idx on template_groups (owner_id, sort_title, id);

create table template_group_entries (
    group_id uuid not null references template_groups (id) on delete cascade,
    entry_id uuid not null references template_entries (id) on delete cascade,
    position integer not null,
    primary key (group_id, entry_id)
);
create index template_group_entries_entry_idx on template_group_entries (entry_id);

-- Who besides the owner may see a private template: a user, every user of an organisation
-- level, or every user of a main organisation.
create table template_permissions (
    id              bigint generated always as identity primary key,
    entry_id        uuid references template_entries (id) on delete cascade,
    group_id        uuid references template_groups (id) on delete cascade,
    user_id         text references users (id) on delete cascade,
    level_id        uuid references organisation_levels (id) on delete cascade,
    organisation_id uuid references organisations (id) on delete cascade,
    check (num_nonnulls(entry_id, group_id) = 1),
    check (num_nonnulls(user_id, level_id, organisation_id) = 1)
);
create index template_permissions_entry_idx on template_permissions (entry_id) where entry_id is not null;
create index template_permissions_group_idx on template_permissions (group_id) where group_id is not null;
create index template_permissions_user_idx on template_permissions (user_id) where user_id is not null;
create index template_permissions_level_idx on template_permissions (level_id) where level_id is not null;
create index template_permissions_organisation_idx on template_permissions (organisation_id) where organisation_id is not null;

-- The ICPC list /codes.json serves: the project's own Dutch titles, filled from the embedded list
-- on first start, replaced by a licensed NHG export with `api icpc-import`.
create table icpc_codes (
    category       text not null,
    code           text not null,
    patient_title  text not null,
    official_title text not null,
    position       integer not null,
    primary key (category, code)
);
