-- Refunds both ways: a refund that is cancelled or a chargeback that is reversed lowers the
-- total the provider reports, and the books answer with a reversal (kind 'reversal'): a positive
-- document that names the credit invoice it undoes (credit_of), never an edit of a booked one.
alter table invoices drop constraint invoices_kind_check,
    add constraint invoices_kind_check check (kind in ('invoice', 'credit', 'reversal'));
alter table invoices drop constraint invoices_check,
    add constraint invoices_credit_of_check check ((kind <> 'invoice') = (credit_of is not null));
alter table invoices drop constraint invoices_check1,
    add constraint invoices_credited_total_check check ((kind <> 'invoice') = (credited_total_cents is not null));

-- each change of the refunded and charged-back total the provider reports: the credit work it
-- queues is keyed by it, so a total that returns to an earlier value (refunded, cancelled,
-- refunded again) is booked again
alter table payments add column refunds_version integer not null default 0;
