-- Reconciliation: a payment the provider has not called final yet is fetched again on a
-- schedule, so a lost webhook or a sync that ran into a refused key never leaves it waiting.
-- `reconciled_at` is when reconciliation last asked the provider about it.
alter table payments add column reconciled_at timestamptz;

-- the payments reconciliation looks at: not final yet (few at any time), by age
create index payments_unsettled_idx on payments (created_at)
    where status in ('OPEN', 'PENDING', 'AUTHORIZED') and provider_payment_id is not null;

-- "is a sync of this payment already waiting?", asked by every webhook delivery and every
-- reconciliation: one index entry per waiting sync, so a burst does not scan the queue
create index jobs_sync_payment_waiting_idx on jobs ((payload->>'providerPaymentId'))
    where kind = 'sync_payment' and state = 'queued';
