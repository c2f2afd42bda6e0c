-- bookkeeping: contacts and invoices for paid payments (Moneybird, or the local bookkeeping).

-- refunds and chargebacks the payment provider reports, in gross cents; each increase is credited
-- with a credit invoice.
alter table payments
    add column amount_refunded_cents    integer not null default 0 check (amount_refunded_cents >= 0),
    add column amount_charged_back_cents integer not null default 0 check (amount_charged_back_cents >= 0);

-- the bookkeeping provider's contact of a user (Moneybird's contact id, or the local one's): one
-- per user and provider, however often the contact job runs.
create table bookkeeping_contacts (
    user_id    text not null references users (id) on delete cascade,
    provider   text not null check (provider in ('moneybird', 'local')),
    contact_id text not null,
    created_at timestamptz not null default now(),
    primary key (user_id, provider)
);

-- the invoices of our payments as the provider made them: exactly one invoice per payment (the
-- unique index holds the line), and a credit invoice per refund or chargeback reported.
create table invoices (
    id                   uuid primary key,
    payment_id           uuid not null references payments (id) on delete cascade,
    kind                 text not null check (kind in ('invoice', 'credit')),
    provider             text not null check (provider in ('moneybird', 'local')),
    -- ours, unique per invoice and stable across retries (SPK-<payment>, SPK-<payment>-C<total>)
    reference            text not null unique,
    provider_invoice_id  text not null,
    -- the number the buyer sees
    number               text not null,
    -- the invoice a credit invoice credits
    credit_of            uuid references invoices (id) on delete cascade,
    -- gross cents, negative on a credit invoice
    amount_cents         integer not null,
    -- credit invoices: refunded and charged back in total, this credit included
    credited_total_cents integer,
    -- the provider's page of the invoice, if it has one
    url                  text,
    issued_on            date not null,
    created_at           timestamptz not null default now(),
    check ((kind = 'credit') = (credit_of is not null)),
    check ((kind = 'credit') = (credited_total_cents is not null))
);
create unique index invoices_one_per_payment_idx on invoices (payment_id) where kind = 'invoice';
create index invoices_payment_idx on invoices (payment_id, created_at);

-- the local bookkeeping (the default without a Moneybird token): its own contacts and invoices.
-- These are the books: they hold no reference to users or payments, so they outlive both.
create table local_bookkeeping_contacts (
    id          text primary key,
    -- our user id
    customer_id text not null unique,
    details     jsonb not null,
    created_at  timestamptz not null default now(),
    updated_at  timestamptz not null default now()
);

-- the last invoice number given per year; the row is locked while a number is given, so numbers
-- are gapless and never given twice.
create table local_invoice_counters (
    year integer primary key,
    last integer not null check (last >= 0)
);

create table local_invoices (
    id         text primary key,
    reference  text not null unique,
    contact_id text not null references local_bookkeeping_contacts (id),
    year       integer not null,
    sequence   integer not null check (sequence >= 1),
    -- 2026-00001
    number     text not null unique,
    -- everything the invoice states (domain::invoices::InvoiceDocument), as it was made
    document   jsonb not null,
    -- the PDF made from it (null until made)
    pdf        bytea,
    created_at timestamptz not null default now(),
    unique (year, sequence)
);

-- an invoice once made is never deleted or changed; only its PDF may be filled in once.
create function local_invoices_keep() returns trigger language plpgsql as $$
begin
    if tg_op = 'DELETE' then
        raise exception 'local invoices are never deleted (invoice %)', old.number;
    end if;
    if new.id <> old.id or new.reference <> old.reference or new.contact_id <> old.contact_id or new.year <> old.year
       or new.sequence <> old.sequence or new.number <> old.number or new.document <> old.document
       or (old.pdf is not null and new.pdf is distinct from old.pdf) then
        raise exception 'local invoice % is never changed', old.number;
    end if;
    return new;
end $$;
create trigger local_invoices_keep before update or delete on local_invoices
    for each row execute function local_invoices_keep();

-- the local checkout's refunds and chargebacks, as Mollie reports them on a payment.
alter table local_checkout_payments
    add column amount_refunded_cents    integer not null default 0 check (amount_refunded_cents >= 0),
    add column amount_charged_back_cents integer not null default 0 check (amount_charged_back_cents >= 0);
