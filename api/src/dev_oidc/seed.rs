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
        let created = sqlx::query(
            "insert into users (id, email, preferred_username, preferred_name) values ($1, $2, $3, $4)
             on conflict (id) do nothing",
        )
        .bind(user.sub)
        .bind(user.email)
        .bind(user.username)
        .bind(user.preferred_name)
        .execute(db)
        .await?
        .rows_affected()
            == 1;
        if created && user.accepted_agreement {
            domain::users::record_agreement(db, user.sub).await?;
        }
    }
    Ok(())
}
