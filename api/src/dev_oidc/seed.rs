//! The users a development machine starts with.

use sqlx::PgPool;

pub struct SeedUser {
    pub sub: &'static str,
    pub email: &'static str,
    pub username: &'static str,
    /// The profile's preferred name (a completed onboarding), if any.
    pub preferred_name: Option<&'static str>,
    /// Shown on the sign-in page.
    pub description: &'static str,
    pub staff: bool,
    pub accepted_agreement: bool,
}

pub const SEED_USERS: &[SeedUser] = &[
    SeedUser {
        sub: "8d3c0f7e-5b1a-4c2e-9f10-0a1b2c3d4e01",
        email: "huisarts@example.nl",
        username: "huisarts",
        preferred_name: Some("Anne de Vries"),
        description: "Huisarts met een ingevuld profiel",
        staff: false,
        accepted_agreement: true,
    },
    SeedUser {
        sub: "8d3c0f7e-5b1a-4c2e-9f10-0a1b2c3d4e02",
        email: "poh@example.nl",
        username: "poh",
        preferred_name: None,
        description: "POH-GGZ",
        staff: false,
        accepted_agreement: true,
    },
    SeedUser {
        sub: "8d3c0f7e-5b1a-4c2e-9f10-0a1b2c3d4e03",
        email: "staff@example.nl",
        username: "staff",
        preferred_name: None,
        description: "Medewerker (CMS)",
        staff: true,
        accepted_agreement: true,
    },
    SeedUser {
        sub: "8d3c0f7e-5b1a-4c2e-9f10-0a1b2c3d4e04",
        email: "nieuw@example.nl",
        username: "nieuw",
        preferred_name: None,
        description: "Nieuwe gebruiker, gebruikersovereenkomst nog niet geaccepteerd",
        staff: false,
        accepted_agreement: false,
    },
];

/// Creates the seeded users once; later changes (a profile, an accepted agreement) are kept.
pub async fn seed(db: &PgPool) -> anyhow::Result<()> {
    for user in SEED_USERS {
        let created = sqlx::query!(
            "insert into users (id, email, preferred_username, preferred_name) values ($1, $2, $3, $4)
             on conflict (id) do nothing",
            user.sub,
            user.email,
            user.username,
            user.preferred_name,
        )
        .execute(db)
        .await?
        .rows_affected()
            == 1;
        if created && user.accepted_agreement {
            domain::users::record_agreement(db, user.sub).await?;
        }
    }
    seed_subscription(db).await
}

/// The practice subscription of the seeded GP: 'Praktijk' for 2 users, yearly, paid through the
/// local checkout, with the POH-GGZ on its second seat, so both pass the subscription gate. The
/// staff member passes as staff; the new user and anyone signed in by a typed e-mail address have
/// none, so the gate and the subscription page can be tried. Made once; it runs out a year after
/// it was made, as a real one would.
async fn seed_subscription(db: &PgPool) -> anyhow::Result<()> {
    const SUBSCRIPTION: uuid::Uuid = uuid::Uuid::from_u128(0x5eed0000_0000_4000_8000_000000000001);
    const PAYMENT: uuid::Uuid = uuid::Uuid::from_u128(0x5eed0000_0000_4000_8000_000000000002);
    const SEAT: uuid::Uuid = uuid::Uuid::from_u128(0x5eed0000_0000_4000_8000_000000000003);
    let (gp, poh) = (SEED_USERS[0].sub, SEED_USERS[1].sub);
    let today = domain::billing::today();
    let until = domain::billing::period_end(today, 12);
    let mut tx = db.begin().await?;
    let made = sqlx::query!(
        "insert into subscriptions (id, user_id, tier_id, description, is_active, is_individual, user_amount, interval_months,
                                    price_per_user, amount, valid_until, next_payment_date)
         select $1::uuid, $2, t.id, 'Spreekkamer Praktijk (2 gebruikers, jaarlijks)', true, false, 2, 12,
                t.price_per_user_year, 2 * t.price_per_user_year, $3::date, $3::date + 1
           from subscription_tiers t where t.id = '5b0e1a52-2f1c-4c57-9a6e-000000000003'
         on conflict (id) do nothing",
        SUBSCRIPTION,
        gp,
        until,
    )
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if !made {
        return Ok(());
    }
    sqlx::query!(
        "insert into payments (id, user_id, subscription_id, description, user_amount, amount_cents, status, interval_months,
                               is_first_payment, sequence_type, provider, provider_payment_id, idempotency_key, period_start,
                               period_end, paid_at, send_invoice_to_email, practice_name, contact_name, street_address,
                               house_number, postcode, city, phone_number)
         select $1::uuid, s.user_id, s.id, s.description, s.user_amount, s.amount, 'PAID', 12, true, 'first', 'local',
                'ltr_seed_' || s.id, 'seed:' || s.id, $3, s.valid_until, now(), 'huisarts@example.nl',
                'Huisartsenpraktijk De Linde', 'Anne de Vries', 'Lindelaan', '12', '1234AB', 'Utrecht', '0201234567'
           from subscriptions s where s.id = $2::uuid",
        PAYMENT,
        SUBSCRIPTION,
        today,
    )
    .execute(&mut *tx)
    .await?;
    // its bookkeeping contact and invoice, as a payment that became PAID gets them
    let payment = PAYMENT;
    for job in [jobs::kinds::CreateContact::on_paid(payment), jobs::kinds::CreateInvoice::on_paid(payment)] {
        jobs::enqueue(&mut tx, job).await?;
    }
    sqlx::query!("update subscriptions set first_payment_id = $1::uuid where id = $2::uuid", PAYMENT, SUBSCRIPTION)
        .execute(&mut *tx)
        .await?;
    // the local checkout's customer with the mandate of that first payment, for renewals
    sqlx::query!(
        "insert into payment_customers (user_id, provider, customer_id, mandate_id) values ($1, 'local', 'lcst_seed', 'lmdt_seed')
         on conflict (user_id, provider) do nothing",
        gp,
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!(
        "insert into linked_subscriptions (id, subscription_id, user_id) values ($1::uuid, $2::uuid, $3)",
        SEAT,
        SUBSCRIPTION,
        poh
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}
