-- The local checkout (machines without a Mollie key, never production) lets an open payment
-- expire 15 minutes after it was made, as Mollie's checkout session for cards does. Its
-- statements are checked when they compile, each one literal, so the rule they share is written
-- once here: when a payment expires, its status as it reads now (an open payment past its expiry
-- reads as 'expired'), and whether it still takes a choice or a cancel (open and not expired).
-- Plain one-expression `language sql` functions (stable: they read the clock), which the planner
-- inlines into the statements that call them.

create function local_checkout_expires_at(created_at timestamptz) returns timestamptz
    language sql stable parallel safe
    as $$ select created_at + interval '15 minutes' $$;

create function local_checkout_status(status text, created_at timestamptz) returns text
    language sql stable parallel safe
    as $$ select case when status = 'open' and local_checkout_expires_at(created_at) <= now() then 'expired' else status end $$;

create function local_checkout_open(status text, created_at timestamptz) returns boolean
    language sql stable parallel safe
    as $$ select status = 'open' and local_checkout_expires_at(created_at) > now() $$;
