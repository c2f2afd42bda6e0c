-- the medicine shortage list in force: staff upload it as a CSV file (naam;atc;status;sinds;advies),
-- which replaces every row in one transaction. the text analysis flags medicines of a text that
-- are on it, matched by ATC code or by name.
create table medicine_shortages (
    -- position in the uploaded file (its data lines, from 1), which keeps the list in its order
    position   integer primary key,
    -- the name as the file gives it (a generic name or a brand)
    name       text not null check (name <> ''),
    -- the ATC code (N02BE01), upper case; null when the file gives none
    atc        text check (atc ~ '^[A-Z][0-9]{2}[A-Z]{2}[0-9]{2}$'),
    -- free text from the file, e.g. 'tekort' or 'beperkt leverbaar'
    status     text not null check (status <> ''),
    -- the day the shortage started
    since      date not null,
    -- what to do instead; may be empty
    advice     text not null default '',
    -- who uploaded the list, and when
    uploaded_by text references users (id) on delete set null,
    uploaded_at timestamptz not null default now()
);

create index medicine_shortages_atc_idx on medicine_shortages (atc);
