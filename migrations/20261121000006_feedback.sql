-- Feedback from the widget on every page; staff read it in the CMS.
create table feedback (
    id            uuid primary key,
    -- which widget: template, faq, status or default
    kind          text not null check (kind in ('template', 'faq', 'status', 'default')),
    text          text not null default '',
    rating        smallint check (rating between 1 and 5),
    anonymous     boolean not null default false,
    -- the consult the feedback is about, when sent from a consult page
    consult_id    text,
    -- the first path segment of the page it was sent from (audioconsult, template, ...)
    consult_type  text,
    -- who sent it; both null when anonymous
    user_id       text references users (id) on delete set null,
    user_label    text,
    created_at    timestamptz not null default now(),
    check (not anonymous or (user_id is null and user_label is null))
);
create index feedback_created_at_idx on feedback (created_at desc);
