-- staff's own settings of one organisation subscription (the CMS's 'Organisatie abonnementen'):
-- switched off, and a last day of its own. while both are unset it follows its organisation's
-- term; domain::organisations::refresh keeps them when it writes the terms again.
alter table organisation_subscriptions
    add column switched_off boolean not null default false,
    add column own_valid_until date;
