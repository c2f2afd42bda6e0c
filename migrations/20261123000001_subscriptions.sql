-- subscriptions and payments (spec subscriptions-cms §3, §4, §5, §9).
-- money is integer cents, gross (vat included); dates that end an access period are calendar
-- days in Europe/Amsterdam whose end of day (23:59:59.999) is the moment access ends.

-- the tiers a practitioner can choose; staff may change them later.
create table subscription_tiers (
    id                       uuid primary key,
    name                     text not null,
    description              text not null default '',
    is_trial                 boolean not null default false,
    -- an individual tier always has exactly one user
    is_individual            boolean not null default false,
    most_popular             boolean not null default false,
    -- gross prices per user, in cents
    price_per_user_month     integer not null check (price_per_user_month >= 0),
    price_per_user_year      integer not null check (price_per_user_year >= 0),
    -- the features as the spec's comma-separated list
    features                 text not null default '',
    -- days a trial lasts (trial tiers only)
    trial_days               integer check (trial_days is null or trial_days > 0),
    -- order on the page
    position                 integer not null default 0,
    created_at               timestamptz not null default now(),
    check (not is_trial or trial_days is not null)
);
-- one tier at most is marked most popular
create unique index subscription_tiers_most_popular_idx on subscription_tiers (most_popular) where most_popular;

insert into subscription_tiers
    (id, name, description, is_trial, is_individual, most_popular, price_per_user_month, price_per_user_year, features, trial_days, position)
values
    ('5b0e1a52-2f1c-4c57-9a6e-000000000001', 'Gratis', 'Probeer Spreekkamer 14 dagen gratis.',
     true, true, false, 0, 0,
     'Gesproken consulten,SOEP-samenvattingen,Templates,Eén gebruiker', 14, 1),
    ('5b0e1a52-2f1c-4c57-9a6e-000000000002', 'Individueel', 'Voor de zelfstandige huisarts of waarnemer.',
     false, true, true, 4900, 55860,
     'Onbeperkt gesproken consulten,SOEP-samenvattingen,Eigen templates,Persoonlijke voorbeelden', null, 2),
    ('5b0e1a52-2f1c-4c57-9a6e-000000000003', 'Praktijk', 'Voor de hele praktijk, prijs per gebruiker.',
     false, false, false, 3900, 44460,
     'Alles van Individueel,Gedeelde templates in de praktijk,Gekoppelde gebruikers,Eén factuur voor de praktijk', null, 3);

-- discount codes: per tier, for monthly billing of an individual tier only (§5); the price
-- replaces the tier's monthly price per user.
create table subscription_discounts (
    id          uuid primary key,
    tier_id     uuid not null references subscription_tiers (id) on delete cascade,
    -- compared case-insensitively; stored in upper case
    code        text not null unique check (code = upper(code) and code <> ''),
    title       text not null,
    price       integer not null check (price >= 0),
    active      boolean not null default true,
    created_at  timestamptz not null default now()
);

-- the users' own subscriptions.
create table subscriptions (
    id                     uuid primary key,
    user_id                text not null references users (id) on delete cascade,
    tier_id                uuid not null references subscription_tiers (id),
    description            text not null,
    -- false until the first payment is paid (trials: at once); the nightly sweep ends it
    is_active              boolean not null default false,
    is_trial               boolean not null default false,
    is_individual          boolean not null default false,
    user_amount            integer not null check (user_amount >= 1),
    interval_months        integer not null check (interval_months in (1, 12)),
    -- what one user costs per interval, and the whole amount per interval (gross cents)
    price_per_user         integer not null check (price_per_user >= 0),
    amount                 integer not null check (amount >= 0),
    -- the last day of access (end of that day, Europe/Amsterdam); null until activated
    valid_until            date,
    created_at             timestamptz not null default now(),
    canceled_at            timestamptz,
    next_payment_date      date,
    -- from this day on a renewal is at the tier's full price
    renew_without_discount_date date,
    discount_id            uuid references subscription_discounts (id) on delete set null,
    -- set with the first payment (a foreign key below, once payments exists)
    first_payment_id       uuid,
    updated_at             timestamptz not null default now()
);
create index subscriptions_user_idx on subscriptions (user_id, created_at desc);
create index subscriptions_active_idx on subscriptions (valid_until) where is_active;

-- seats of a subscription: a user with an account, or an e-mail address (lower case) without one yet.
create table linked_subscriptions (
    id              uuid primary key,
    subscription_id uuid not null references subscriptions (id) on delete cascade,
    user_id         text references users (id) on delete cascade,
    email           text check (email is null or (email = lower(email) and email <> '')),
    created_at      timestamptz not null default now(),
    check (user_id is not null or email is not null)
);
create unique index linked_subscriptions_user_idx on linked_subscriptions (subscription_id, user_id) where user_id is not null;
create unique index linked_subscriptions_email_idx on linked_subscriptions (subscription_id, email) where email is not null;
create index linked_subscriptions_seat_user_idx on linked_subscriptions (user_id) where user_id is not null;
create index linked_subscriptions_seat_email_idx on linked_subscriptions (email) where email is not null;

-- the payment provider's customer per user (Mollie `cst_...`, or the local checkout's).
create table payment_customers (
    user_id     text not null references users (id) on delete cascade,
    provider    text not null check (provider in ('mollie', 'local')),
    customer_id text not null,
    -- the mandate of the last paid first payment, for recurring payments
    mandate_id  text,
    created_at  timestamptz not null default now(),
    primary key (user_id, provider)
);

-- payments: every field of the spec's Payment entity, the provider's ids and the period paid for.
create table payments (
    id                     uuid primary key,
    user_id                text not null references users (id) on delete cascade,
    subscription_id        uuid not null references subscriptions (id) on delete cascade,
    description            text not null,
    user_amount            integer not null check (user_amount >= 1),
    amount_cents           integer not null check (amount_cents >= 0),
    currency               text not null default 'EUR',
    -- moves forward only: open -> pending/authorized -> paid, or -> failed/canceled/expired
    status                 text not null default 'OPEN'
                           check (status in ('OPEN', 'CANCELED', 'PAID', 'EXPIRED', 'FAILED', 'PENDING', 'AUTHORIZED')),
    interval_months        integer not null check (interval_months in (1, 12)),
    is_first_payment       boolean not null,
    sequence_type          text not null check (sequence_type in ('first', 'recurring')),
    provider               text not null check (provider in ('mollie', 'local')),
    provider_payment_id    text unique,
    provider_customer_id   text,
    mandate_id             text,
    -- sent with the create call, so a retried create never makes a second payment
    idempotency_key        text not null unique,
    -- where the user pays (the provider's checkout)
    checkout_url           text,
    -- the access period this payment pays for (filled when it is paid)
    period_start           date,
    period_end             date,
    paid_at                timestamptz,
    discount_id            uuid references subscription_discounts (id) on delete set null,
    -- bookkeeping (filled by the bookkeeping provider's work)
    moneybird_invoice_id   text,
    moneybird_contact_id   text,
    sales_invoices_url     text,
    -- billing details from the billing dialog
    send_invoice_to_email  text not null default '',
    practice_name          text not null default '',
    contact_name           text not null default '',
    street_address         text not null default '',
    house_number           text not null default '',
    house_number_addition  text not null default '',
    postcode               text not null default '',
    city                   text not null default '',
    phone_number           text not null default '',
    kvk_number             text not null default '',
    created_at             timestamptz not null default now(),
    updated_at             timestamptz not null default now()
);
create index payments_user_idx on payments (user_id, created_at desc);
create index payments_subscription_idx on payments (subscription_id, created_at desc);

alter table subscriptions
    add constraint subscriptions_first_payment_fk foreign key (first_payment_id) references payments (id) on delete set null;

-- a trial is activated once per user: the primary key is the rule.
create table trial_uses (
    user_id         text primary key references users (id) on delete cascade,
    subscription_id uuid references subscriptions (id) on delete set null,
    used_at         timestamptz not null default now()
);

-- organisation subscriptions, read by the subscription page; the staff CMS manages them.
-- a row names a user with an account or an e-mail address, on a level (practice) or a main organisation.
create table organisation_subscriptions (
    id              uuid primary key,
    description     text not null default '',
    user_id         text references users (id) on delete cascade,
    user_email      text check (user_email is null or user_email = lower(user_email)),
    organisation_id uuid references organisations (id) on delete cascade,
    level_id        uuid references organisation_levels (id) on delete cascade,
    -- ION or USER (§9), or empty
    product_type    text,
    start_date      date,
    valid_until     date,
    is_active       boolean not null default true,
    created_at      timestamptz not null default now()
);
create index organisation_subscriptions_user_idx on organisation_subscriptions (user_id) where user_id is not null;
create index organisation_subscriptions_email_idx on organisation_subscriptions (user_email) where user_email is not null;
create index organisation_subscriptions_level_idx on organisation_subscriptions (level_id) where level_id is not null;

-- problems found by the sweeps (a paid subscription without a paid payment for 5 days).
create table subscription_problems (
    id              uuid primary key,
    subscription_id uuid not null references subscriptions (id) on delete cascade,
    kind            text not null check (kind in ('unpaid')),
    detected_at     timestamptz not null default now(),
    notified_at     timestamptz,
    resolved_at     timestamptz
);
create unique index subscription_problems_open_idx on subscription_problems (subscription_id, kind) where resolved_at is null;

-- the local checkout's payments (the default payment provider without a Mollie key): what
-- Mollie would keep for a payment, kept here so the worker can fetch it like Mollie's.
create table local_checkout_payments (
    id              text primary key,
    customer_id     text not null,
    amount_cents    integer not null check (amount_cents >= 0),
    description     text not null,
    sequence_type   text not null check (sequence_type in ('first', 'recurring')),
    status          text not null default 'open'
                    check (status in ('open', 'pending', 'authorized', 'paid', 'failed', 'canceled', 'expired')),
    redirect_url    text,
    webhook_url     text,
    -- our payment's id, as Mollie's metadata holds it
    metadata        jsonb not null default '{}',
    idempotency_key text unique,
    mandate_id      text,
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now()
);
