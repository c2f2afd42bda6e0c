-- The local checkout's page was open to anyone who knew a payment's id. Each payment now has a
-- key of its own, made with it and part of its checkout address (as Mollie's checkout addresses
-- are unguessable): only the browser that was sent there can choose the outcome.
alter table local_checkout_payments add column checkout_key text;
