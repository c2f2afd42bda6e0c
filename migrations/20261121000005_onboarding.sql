-- The onboarding profile: what a user tells about themselves and their practice, all optional.
-- The name they want to be addressed by is users.preferred_name.
create table user_profiles (
    user_id           text primary key references users (id) on delete cascade,
    phone_number      text,
    -- the practice's AGB code (Vektis register): eight digits
    agb_code          text,
    organisation_name text,
    -- ARTS, ZORGGROEPMANAGER or ANDERS
    user_kind         text check (user_kind in ('ARTS', 'ZORGGROEPMANAGER', 'ANDERS')),
    -- WAARNEMEND, PRAKTIJKHOUDEND or ANDERS; only for ARTS
    practitioner_kind text check (practitioner_kind in ('WAARNEMEND', 'PRAKTIJKHOUDEND', 'ANDERS')),
    updated_at        timestamptz not null default now(),
    check (practitioner_kind is null or user_kind = 'ARTS')
);
