-- "Active on a day" and "whose organisation subscription", each written once, as SQL functions,
-- so the statements that ask them are checked at compile time (a statement checked by the
-- compiler is one literal and cannot splice in a shared fragment). The Rust twins are
-- billing::lifecycle::is_active and is_organisation_active; domain/tests/active.rs checks that
-- the two agree on a grid of subscriptions. The functions are plain `language sql` bodies of one
-- expression, neither strict nor volatile, so the planner inlines them into the statement that
-- calls them and the indexes (such as subscriptions_active_idx) serve as before.

-- A user subscription: switched on, and its last day is `today` or later (a subscription without
-- a last day has not started).
create function subscription_active(is_active boolean, valid_until date, today date) returns boolean
    language sql immutable parallel safe
    as $$ select is_active and valid_until is not null and valid_until >= today $$;

-- An organisation subscription: switched on, started (or without a first day), and not past its
-- last day (or without one).
create function organisation_subscription_active(is_active boolean, start_date date, valid_until date, today date)
    returns boolean
    language sql immutable parallel safe
    as $$ select is_active and (start_date is null or start_date <= today) and (valid_until is null or valid_until >= today) $$;

-- The organisation subscriptions that are a user's: those naming the user or their address, a
-- level they belong to, or that level's main organisation. Used in FROM, which the planner
-- inlines (a set-returning `language sql` function of one SELECT), so the lookups by level and
-- organisation run once per statement. Parameters are named apart from the tables' columns,
-- which a body's names would otherwise mean.
create function organisation_subscriptions_of(of_user text, of_email text)
    returns setof organisation_subscriptions
    language sql stable parallel safe
    as $$
        select o.* from organisation_subscriptions o
         where o.user_id = of_user
            or (o.user_email is not null and o.user_email = lower(of_email))
            or o.level_id in (select m.level_id from organisation_members m where m.user_id = of_user)
            or o.organisation_id in (select l.organisation_id from organisation_levels l
                                      join organisation_members m on m.level_id = l.id where m.user_id = of_user)
    $$;
