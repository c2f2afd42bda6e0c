-- When an open payment expires at the provider if nobody pays it (Mollie's `expiresAt`, the
-- local checkout's own), kept from the provider's answer when the payment is made. The
-- subscription page shows an open payment past it as expired instead of waiting for it.
alter table payments add column expires_at timestamptz;
