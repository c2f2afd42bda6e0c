-- A member's organisation subscription is their own row: adding a user to a sub-organisation
-- writes one row naming that user (or their address) together with the level and organisation.
-- Matching those rows by level as well listed every colleague's row to each member, so a
-- practice of N members showed N identical subscriptions. A row that names a user or an address
-- is that user's only; a row that names no one (a whole level or organisation) is every member's.
create or replace function organisation_subscriptions_of(of_user text, of_email text)
    returns setof organisation_subscriptions
    language sql stable parallel safe
    as $$
        select o.* from organisation_subscriptions o
         where o.user_id = of_user
            or (o.user_id is null and o.user_email is not null and o.user_email = lower(of_email))
            or (o.user_id is null and o.user_email is null
                and (o.level_id in (select m.level_id from organisation_members m where m.user_id = of_user)
                     or o.organisation_id in (select l.organisation_id from organisation_levels l
                                               join organisation_members m on m.level_id = l.id where m.user_id = of_user)))
    $$;
