//! Subscriptions against a real database: pending subscriptions, activation on PAID (once, also
//! under concurrent deliveries), renewals, trials once per user, seats, cancelling, owners only.

use chrono::NaiveDate;
use domain::billing::Address;
use domain::billing::Cents;
use domain::billing::status::PaymentStatus;
use domain::billing::{self, BillingDetails};
use domain::refusal::Refusal;
use sqlx::PgPool;
use uuid::Uuid;

const TRIAL: Uuid = Uuid::from_u128(0x5b0e1a52_2f1c_4c57_9a6e_000000000001);
const INDIVIDUAL: Uuid = Uuid::from_u128(0x5b0e1a52_2f1c_4c57_9a6e_000000000002);
const PRACTICE: Uuid = Uuid::from_u128(0x5b0e1a52_2f1c_4c57_9a6e_000000000003);

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

async fn user(db: &PgPool, id: &str, email: &str) {
    sqlx::query("insert into users (id, email, preferred_username) values ($1, $2, $2)").bind(id).bind(email).execute(db).await.unwrap();
}

fn details(tier: Uuid, users: i32, months: i32) -> BillingDetails {
    BillingDetails {
        address: Address {
            contact_name: "Anne de Vries".into(),
            phone_number: "0201234567".into(),
            street_address: "Dorpsstraat".into(),
            house_number: "1".into(),
            postcode: "1234AB".into(),
            city: "Amsterdam".into(),
            ..Default::default()
        },
        send_invoice_to_email: "factuur@praktijk.nl".into(),
        tier_id: tier,
        user_amount: users,
        interval_months: months,
        ..Default::default()
    }
}

async fn status(db: &PgPool, payment: Uuid) -> String {
    sqlx::query_scalar("select status from payments where id = $1").bind(payment).fetch_one(db).await.unwrap()
}

/// The owner's cancel, as the subscription page calls it (its own transaction).
async fn cancel(db: &PgPool, owner: &str, id: Uuid, today: NaiveDate) -> Result<(), Refusal> {
    let mut tx = db.begin().await?;
    billing::lifecycle::cancel(&mut tx, billing::lifecycle::Actor::Owner(owner), id, today).await?;
    tx.commit().await?;
    Ok(())
}

async fn send(db: &PgPool, payment: Uuid, provider_id: &str) {
    billing::checkout::record_provider_payment(db, payment, provider_id, Some("cst_test"), Some("https://pay.example/x"), None)
        .await
        .unwrap();
}

#[sqlx::test(migrations = "../migrations")]
async fn a_paid_first_payment_activates_for_its_interval_once(db: PgPool) {
    user(&db, "u1", "anne@example.nl").await;
    let pending = billing::checkout::create_pending(&db, "u1", &details(PRACTICE, 3, 12), "local").await.unwrap();
    assert_eq!(pending.quote.amount, Cents(3 * 44460));
    assert_eq!(pending.quote.user_amount, 3);
    assert_eq!(status(&db, pending.payment_id).await, "OPEN");
    let today = day(2026, 11, 23);
    assert!(!billing::read::has_active(&db, "u1", "anne@example.nl", today).await.unwrap());
    send(&db, pending.payment_id, "tr_1").await;

    let applied = billing::lifecycle::apply_provider_status(&db, "tr_1", PaymentStatus::Pending, None, today).await.unwrap().unwrap();
    assert!(applied.changed && !applied.activated);
    let applied = billing::lifecycle::apply_provider_status(&db, "tr_1", PaymentStatus::Paid, Some("mdt_1"), today).await.unwrap().unwrap();
    assert!(applied.changed && applied.activated);
    assert_eq!(applied.valid_until, Some(day(2027, 11, 22)));
    // replayed and late deliveries change nothing
    for late in [PaymentStatus::Paid, PaymentStatus::Open, PaymentStatus::Expired, PaymentStatus::Pending] {
        let again = billing::lifecycle::apply_provider_status(&db, "tr_1", late, None, today).await.unwrap().unwrap();
        assert!(!again.changed && !again.activated, "{late:?}");
    }
    assert_eq!(status(&db, pending.payment_id).await, "PAID");
    assert!(billing::read::has_active(&db, "u1", "anne@example.nl", today).await.unwrap());
    assert!(billing::read::has_active(&db, "u1", "anne@example.nl", day(2027, 11, 22)).await.unwrap());
    assert!(!billing::read::has_active(&db, "u1", "anne@example.nl", day(2027, 11, 23)).await.unwrap());
    let list = billing::read::for_user(&db, "u1", today).await.unwrap();
    assert_eq!(list.len(), 1);
    assert!(list[0].is_active && list[0].can_link_users);
    assert_eq!(list[0].next_payment_date, Some(day(2027, 11, 23)));
    let payments = billing::read::payments_for_user(&db, "u1").await.unwrap();
    assert_eq!(payments[0].period_start, Some(today));
    assert_eq!(payments[0].amount, Cents(133380));
    // unknown ids are nobody's
    assert!(billing::lifecycle::apply_provider_status(&db, "tr_unknown", PaymentStatus::Paid, None, today).await.unwrap().is_none());
}

#[sqlx::test(migrations = "../migrations")]
async fn a_failed_first_payment_leaves_the_subscription_inactive(db: PgPool) {
    user(&db, "u1", "anne@example.nl").await;
    let pending = billing::checkout::create_pending(&db, "u1", &details(INDIVIDUAL, 7, 1), "local").await.unwrap();
    assert_eq!(pending.quote.user_amount, 1, "an individual tier has one user");
    assert_eq!(pending.quote.amount, Cents(4900));
    send(&db, pending.payment_id, "tr_2").await;
    let today = day(2026, 11, 23);
    let applied = billing::lifecycle::apply_provider_status(&db, "tr_2", PaymentStatus::Failed, None, today).await.unwrap().unwrap();
    assert!(applied.changed && !applied.activated);
    let paid_late = billing::lifecycle::apply_provider_status(&db, "tr_2", PaymentStatus::Paid, None, today).await.unwrap().unwrap();
    assert!(!paid_late.changed, "a failed payment is never paid later");
    assert!(!billing::read::has_active(&db, "u1", "anne@example.nl", today).await.unwrap());
}

#[sqlx::test(migrations = "../migrations")]
async fn ten_concurrent_deliveries_make_one_transition_and_one_activation(db: PgPool) {
    user(&db, "u1", "anne@example.nl").await;
    let pending = billing::checkout::create_pending(&db, "u1", &details(PRACTICE, 2, 1), "local").await.unwrap();
    send(&db, pending.payment_id, "tr_3").await;
    let today = day(2026, 11, 23);
    let order = [
        PaymentStatus::Paid,
        PaymentStatus::Pending,
        PaymentStatus::Paid,
        PaymentStatus::Open,
        PaymentStatus::Paid,
        PaymentStatus::Paid,
        PaymentStatus::Authorized,
        PaymentStatus::Paid,
        PaymentStatus::Paid,
        PaymentStatus::Paid,
    ];
    let tasks: Vec<_> = order
        .into_iter()
        .map(|s| {
            let db = db.clone();
            tokio::spawn(async move { billing::lifecycle::apply_provider_status(&db, "tr_3", s, None, today).await.unwrap().unwrap() })
        })
        .collect();
    let mut activations = 0;
    let mut to_paid = 0;
    for t in tasks {
        let applied = t.await.unwrap();
        activations += applied.activated as u32;
        to_paid += (applied.changed && applied.to == PaymentStatus::Paid) as u32;
    }
    assert_eq!(activations, 1);
    assert_eq!(to_paid, 1);
    assert_eq!(status(&db, pending.payment_id).await, "PAID");
    let valid: NaiveDate = sqlx::query_scalar("select valid_until from subscriptions where id = $1")
        .bind(pending.subscription_id)
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(valid, day(2026, 12, 22));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_paid_renewal_extends_valid_until_from_its_end(db: PgPool) {
    user(&db, "u1", "anne@example.nl").await;
    let pending = billing::checkout::create_pending(&db, "u1", &details(INDIVIDUAL, 1, 1), "local").await.unwrap();
    send(&db, pending.payment_id, "tr_first").await;
    billing::lifecycle::apply_provider_status(&db, "tr_first", PaymentStatus::Paid, None, day(2026, 11, 23)).await.unwrap();
    // a renewal payment on the same subscription (the renewal sweep's work, written here by hand)
    let renewal = Uuid::new_v4();
    sqlx::query(
        "insert into payments (id, user_id, subscription_id, description, user_amount, amount_cents, interval_months,
                               is_first_payment, sequence_type, provider, idempotency_key, provider_payment_id)
         values ($1, 'u1', $2, 'verlenging', 1, 4900, 1, false, 'recurring', 'local', 'renewal:x', 'tr_renew')",
    )
    .bind(renewal)
    .bind(pending.subscription_id)
    .execute(&db)
    .await
    .unwrap();
    let applied =
        billing::lifecycle::apply_provider_status(&db, "tr_renew", PaymentStatus::Paid, None, day(2026, 12, 20)).await.unwrap().unwrap();
    assert_eq!(applied.valid_until, Some(day(2027, 1, 22)));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_trial_is_activated_once_per_user_also_concurrently(db: PgPool) {
    user(&db, "u1", "anne@example.nl").await;
    let today = day(2026, 11, 23);
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let db = db.clone();
            tokio::spawn(async move { billing::lifecycle::create_trial(&db, "u1", &details(TRIAL, 1, 1), today).await })
        })
        .collect();
    let mut ok = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => ok += 1,
            Err(Refusal::Conflict(m)) => assert_eq!(m, "Gebruiker heeft al eens een proefabonnement geactiveerd"),
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(ok, 1);
    let list = billing::read::for_user(&db, "u1", today).await.unwrap();
    assert_eq!(list.len(), 1);
    assert!(list[0].is_trial && list[0].is_active);
    assert_eq!(list[0].valid_until, Some(day(2026, 12, 6)), "14 days including today");
    // a trial tier cannot be paid for, a paid tier is no trial
    assert!(matches!(billing::checkout::create_pending(&db, "u1", &details(TRIAL, 1, 1), "local").await, Err(Refusal::Invalid(_))));
    user(&db, "u2", "b@example.nl").await;
    assert!(matches!(billing::lifecycle::create_trial(&db, "u2", &details(INDIVIDUAL, 1, 1), today).await, Err(Refusal::Invalid(_))));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_discount_only_for_its_own_monthly_individual_tier(db: PgPool) {
    user(&db, "u1", "anne@example.nl").await;
    let code = billing::catalogue::add_discount(&db, INDIVIDUAL, "welkom25", "Welkomstkorting", 2500).await.unwrap();
    let found = billing::catalogue::discount_by_code(&db, " Welkom25 ").await.unwrap().unwrap();
    assert_eq!(found.id, code);
    assert!(billing::catalogue::discount_by_code(&db, "bestaatniet").await.unwrap().is_none());
    assert!(billing::catalogue::discount_by_code(&db, "").await.unwrap().is_none());

    let mut monthly = details(INDIVIDUAL, 1, 1);
    monthly.discount_id = Some(code);
    let pending = billing::checkout::create_pending(&db, "u1", &monthly, "local").await.unwrap();
    assert_eq!(pending.quote.amount, Cents(2500));
    let mut yearly = details(INDIVIDUAL, 1, 12);
    yearly.discount_id = Some(code);
    let mut practice = details(PRACTICE, 2, 1);
    practice.discount_id = Some(code);
    let mut unknown = details(INDIVIDUAL, 1, 1);
    unknown.discount_id = Some(Uuid::new_v4());
    for d in [yearly, practice, unknown] {
        match billing::checkout::create_pending(&db, "u1", &d, "local").await {
            Err(Refusal::Invalid(m)) => assert_eq!(m, "Kortingscode onjuist"),
            other => panic!("{other:?}"),
        }
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn seats_cancelling_and_owners_only(db: PgPool) {
    user(&db, "owner", "owner@example.nl").await;
    user(&db, "colleague", "collega@example.nl").await;
    user(&db, "stranger", "vreemde@example.nl").await;
    let today = day(2026, 11, 23);
    let pending = billing::checkout::create_pending(&db, "owner", &details(PRACTICE, 1, 1), "local").await.unwrap();
    let sub = pending.subscription_id;
    // not active yet: no seats
    assert!(matches!(billing::seats::add_linked(&db, "owner", sub, "a@b.nl", today).await, Err(Refusal::Conflict(_))));
    send(&db, pending.payment_id, "tr_s").await;
    billing::lifecycle::apply_provider_status(&db, "tr_s", PaymentStatus::Paid, None, today).await.unwrap();

    match billing::seats::add_linked(&db, "owner", sub, "  ", today).await {
        Err(Refusal::Invalid(m)) => assert_eq!(m, "Geen e-mail adres ingevuld"),
        other => panic!("{other:?}"),
    }
    let seat = billing::seats::add_linked(&db, "owner", sub, " Collega@Example.NL ", today).await.unwrap();
    assert_eq!(seat.email_address, "collega@example.nl");
    assert_eq!(seat.user_id.as_deref(), Some("colleague"));
    assert_eq!(seat.warning, None);
    assert!(matches!(billing::seats::add_linked(&db, "owner", sub, "collega@example.nl", today).await, Err(Refusal::Conflict(_))));
    let second = billing::seats::add_linked(&db, "owner", sub, "nog.geen.account@example.nl", today).await.unwrap();
    assert_eq!(second.user_id, None);
    assert_eq!(second.warning, Some(billing::FAIR_USE));
    // the colleague and the invited address now have a subscription through the seat
    assert!(billing::read::has_active(&db, "colleague", "collega@example.nl", today).await.unwrap());
    assert_eq!(billing::read::linked_for_user(&db, "colleague", "collega@example.nl", today).await.unwrap().len(), 1);
    assert!(!billing::read::has_active(&db, "stranger", "vreemde@example.nl", today).await.unwrap());

    // someone else cannot add, remove or cancel
    assert!(matches!(billing::seats::add_linked(&db, "stranger", sub, "x@y.nl", today).await, Err(Refusal::NotFound(_))));
    match billing::seats::remove_linked(&db, "stranger", seat.id).await {
        Err(Refusal::NotFound(m)) => assert_eq!(m, "Gebruiker kan niet worden verwijderd"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(cancel(&db, "stranger", sub, today).await, Err(Refusal::NotFound(_))));
    assert!(billing::read::for_user(&db, "stranger", today).await.unwrap().is_empty());

    billing::seats::remove_linked(&db, "owner", seat.id).await.unwrap();
    assert!(!billing::read::has_active(&db, "colleague", "collega@example.nl", today).await.unwrap());

    // cancelled: usable until valid_until, no next payment, cancelling again changes nothing
    cancel(&db, "owner", sub, today).await.unwrap();
    cancel(&db, "owner", sub, today).await.unwrap();
    let list = billing::read::for_user(&db, "owner", today).await.unwrap();
    assert!(list[0].is_active && list[0].canceled_at.is_some() && list[0].next_payment_date.is_none());
    assert!(billing::read::has_active(&db, "owner", "owner@example.nl", day(2026, 12, 22)).await.unwrap());
    assert!(!billing::read::has_active(&db, "owner", "owner@example.nl", day(2026, 12, 23)).await.unwrap());
}

#[sqlx::test(migrations = "../migrations")]
async fn organisation_subscriptions_reach_their_members(db: PgPool) {
    user(&db, "u1", "lid@example.nl").await;
    user(&db, "u2", "ander@example.nl").await;
    let org = Uuid::new_v4();
    let level = Uuid::new_v4();
    sqlx::query("insert into organisations (id, name) values ($1, 'Zorggroep')").bind(org).execute(&db).await.unwrap();
    sqlx::query("insert into organisation_levels (id, organisation_id, name) values ($1, $2, 'Praktijk')")
        .bind(level)
        .bind(org)
        .execute(&db)
        .await
        .unwrap();
    sqlx::query("insert into organisation_members (level_id, user_id) values ($1, 'u1')").bind(level).execute(&db).await.unwrap();
    sqlx::query("insert into organisation_subscriptions (id, description, organisation_id, valid_until) values ($1, 'Zorggroep abonnement', $2, '2026-12-31')")
        .bind(Uuid::new_v4())
        .bind(org)
        .execute(&db)
        .await
        .unwrap();
    let today = day(2026, 11, 23);
    assert!(billing::read::has_active_organisation(&db, "u1", "lid@example.nl", today).await.unwrap());
    assert!(!billing::read::has_active_organisation(&db, "u1", "lid@example.nl", day(2027, 1, 1)).await.unwrap());
    assert!(!billing::read::has_active_organisation(&db, "u2", "ander@example.nl", today).await.unwrap());
    assert_eq!(billing::read::organisation_for_user(&db, "u1", "lid@example.nl", today).await.unwrap().len(), 1);
    assert_eq!(billing::read::for_organisation(&db, "u1", org, today).await.unwrap().len(), 1);
    assert!(billing::read::for_organisation(&db, "u2", org, today).await.unwrap().is_empty());
    // by e-mail address, without an account link
    sqlx::query("insert into organisation_subscriptions (id, description, user_email) values ($1, 'Los', 'ander@example.nl')")
        .bind(Uuid::new_v4())
        .execute(&db)
        .await
        .unwrap();
    assert!(billing::read::has_active_organisation(&db, "u2", "Ander@Example.nl", today).await.unwrap());
}

#[sqlx::test(migrations = "../migrations")]
async fn early_adopters_made_their_account_before_the_date(db: PgPool) {
    user(&db, "u1", "a@example.nl").await;
    sqlx::query("update users set created_at = '2026-01-01T10:00:00Z' where id = 'u1'").execute(&db).await.unwrap();
    assert!(billing::read::is_early_adopter(&db, "u1", Some(day(2026, 6, 1))).await.unwrap());
    assert!(!billing::read::is_early_adopter(&db, "u1", Some(day(2026, 1, 1))).await.unwrap());
    assert!(!billing::read::is_early_adopter(&db, "u1", None).await.unwrap());
    assert!(!billing::read::is_early_adopter(&db, "nobody", Some(day(2030, 1, 1))).await.unwrap());
}

#[sqlx::test(migrations = "../migrations")]
async fn a_stored_payment_status_the_codec_does_not_know_is_refused_not_read_as_open(db: PgPool) {
    let known: PaymentStatus = sqlx::query_scalar("select 'PAID'::text").fetch_one(&db).await.unwrap();
    assert_eq!(known, PaymentStatus::Paid);
    assert!(sqlx::query_scalar::<_, PaymentStatus>("select 'REFUNDED'::text").fetch_one(&db).await.is_err());
    // the provider's spelling is parsed at the edge (`PaymentStatus::parse`), never stored
    assert!(sqlx::query_scalar::<_, PaymentStatus>("select 'paid'::text").fetch_one(&db).await.is_err());
}
