//! Organisaties and Organisatie abonnementen: the forms' messages in the spec's order, the
//! 1970-01-01 and term rules, users of a sub-organisation (accounts and waiting addresses) with
//! their organisation subscriptions, an invited address that signs in later and gets access, the
//! duplicate rule, the problem lists and the sync, one organisation subscription switched off or
//! given its own last day (kept when the terms are written again), and the HIS delete rule. Access and the audit
//! entries of every call are in `audit.rs`.

mod common;

use common::TestApp;
use serde_json::{Value, json};
use sqlx::PgPool;

async fn post(app: &TestApp, path: &str, token: &str, body: Value) -> reqwest::Response {
    app.http.post(app.url(path)).bearer_auth(token).json(&body).send().await.unwrap()
}

async fn message(r: reqwest::Response) -> (u16, String) {
    let status = r.status().as_u16();
    (status, r.json::<Value>().await.unwrap()["message"].as_str().unwrap_or_default().to_owned())
}

/// A main organisation and one sub-organisation, the term on the sub-organisation.
async fn organisation(app: &TestApp, staff: &str, valid_until: &str) -> (String, String) {
    let main: Value =
        post(app, "/api/cms/organization", staff, json!({ "organizationName": "Zorggroep Zuid", "agbCode": "111", "type": "CARE_GROUP" }))
            .await
            .json()
            .await
            .unwrap();
    let main_id = main["id"].as_str().unwrap().to_owned();
    let sub: Value = post(
        app,
        &format!("/api/cms/suborganizationLinkingtoMain/{main_id}"),
        staff,
        json!({ "organizationName": "Praktijk De Linde", "agbCode": "222", "validUntil": valid_until }),
    )
    .await
    .json()
    .await
    .unwrap();
    (main_id, sub["id"].as_str().unwrap().to_owned())
}

#[sqlx::test(migrations = "../migrations")]
async fn the_forms_check_in_the_spec_order_and_a_main_without_dates_ends_in_1970(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let staff = app.access_token_for("staff@example.nl").await;
    let full = json!({ "organizationName": "Zorggroep Zuid", "agbCode": "111", "type": "CARE_GROUP", "validDateMainLevel": true,
                       "startDate": "2026-01-01", "validUntil": "2027-01-31" });
    for (field, value, expected) in [
        ("organizationName", json!(""), "Naam niet ingevuld"),
        ("agbCode", json!(" "), "AGB code niet ingevuld"),
        ("validUntil", json!(""), "Einddatum niet ingevuld"),
        ("validUntil", json!("31-01-2027"), "Datum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30"),
        ("startDate", json!("2026/01/01"), "Startdatum geen goed format ingevuld, gebruik YYYY-MM-DD"),
        ("startDate", json!("2027-02-01"), "Einddatum kan niet eerder zijn dan de startdatum."),
        ("type", json!(null), "Categorie niet ingevuld"),
    ] {
        let mut body = full.clone();
        body[field] = value;
        assert_eq!(message(post(&app, "/api/cms/organization", &staff, body).await).await, (400, expected.to_owned()), "{field}");
    }
    let main: Value = post(&app, "/api/cms/organization", &staff, full.clone()).await.json().await.unwrap();
    assert_eq!((main["validUntil"].as_str(), main["isActive"].as_bool()), (Some("2027-01-31"), Some(true)));

    // without dates on main level: 1970-01-01, and the dates asked for per sub-organisation
    let per_level: Value = post(
        &app,
        "/api/cms/organization",
        &staff,
        json!({ "organizationName": "Praktijkgroep", "agbCode": "9", "type": "PRACTICE_GROUP" }),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!((per_level["validUntil"].as_str(), per_level["validDateMainLevel"].as_bool()), (Some("1970-01-01"), Some(false)));
    let id = per_level["id"].as_str().unwrap();
    let sub_path = format!("/api/cms/suborganizationLinkingtoMain/{id}");
    let sub = json!({ "organizationName": "De Linde", "agbCode": "22" });
    assert_eq!(message(post(&app, &sub_path, &staff, sub.clone()).await).await, (400, "Einddatum niet ingevuld".to_owned()));
    let mut no_agb = sub.clone();
    no_agb["agbCode"] = json!("");
    assert_eq!(message(post(&app, &sub_path, &staff, no_agb).await).await, (400, "AGBCode niet ingevuld".to_owned()));
    let mut no_type = sub.clone();
    no_type["type"] = json!("");
    assert_eq!(message(post(&app, &sub_path, &staff, no_type).await).await, (400, "Type niet ingevuld".to_owned()));
    let mut dated = sub.clone();
    dated["validUntil"] = json!("2099-01-01");
    let made: Value = post(&app, &sub_path, &staff, dated).await.json().await.unwrap();
    assert_eq!((made["type"].as_str(), made["isActive"].as_bool()), (Some("PRACTICE"), Some(true)), "a practice by default");

    // the inline edit's messages
    let mut edit = full.clone();
    edit["id"] = main["id"].clone();
    edit["agbCode"] = json!("");
    assert_eq!(message(post(&app, "/api/cms/organization", &staff, edit.clone()).await).await, (400, "Agbcode niet ingevuld".to_owned()));
    edit["agbCode"] = json!("111");
    edit["type"] = json!("");
    assert_eq!(message(post(&app, "/api/cms/organization", &staff, edit.clone()).await).await, (400, "Type niet ingevuld".to_owned()));
    edit["type"] = json!("CENTRE");
    edit["organizationName"] = json!("Zorggroep Noord");
    let renamed: Value = post(&app, "/api/cms/organization", &staff, edit).await.json().await.unwrap();
    assert_eq!((renamed["organizationName"].as_str(), renamed["type"].as_str()), (Some("Zorggroep Noord"), Some("CENTRE")));

    // the Alle/Actieve/Inactieve filter: the per-level group is active through its sub-organisation
    let active: Value = app.get_with_token("/api/cms/organizations/all?filter=ACTIVE", &staff).await.json().await.unwrap();
    assert_eq!(active["total"], 2);
    let inactive: Value = app.get_with_token("/api/cms/organizations/all?filter=INACTIVE", &staff).await.json().await.unwrap();
    assert_eq!(inactive["total"], 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn users_of_a_sub_organisation_get_access_that_follows_its_term(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let staff = app.access_token_for("staff@example.nl").await;
    let gp = app.access_token_unsubscribed("arts@zuid.nl").await;
    let (main, sub) = organisation(&app, &staff, "2099-12-31").await;
    let add = format!("/api/cms/suborganizationLinkingToUsers/{main}/{sub}");
    for (email, expected) in [("", "Email niet ingevuld"), ("arts @zuid.nl", "Email bevat spaties")] {
        assert_eq!(message(post(&app, &add, &staff, json!({ "email": email })).await).await, (400, expected.to_owned()));
    }
    let added: Value = post(&app, &add, &staff, json!({ "email": "ARTS@zuid.nl" })).await.json().await.unwrap();
    assert!(added["userId"].is_string(), "an account with that address");
    assert_eq!(
        message(post(&app, &add, &staff, json!({ "email": "arts@zuid.nl" })).await).await,
        (409, "Gebruiker is al toegevoegd".to_owned())
    );
    let waiting: Value = post(&app, &add, &staff, json!({ "email": "nieuw-lid@zuid.nl", "admin": true })).await.json().await.unwrap();
    assert_eq!(waiting["userId"], Value::Null, "an address without an account waits");
    assert_eq!(message(post(&app, &add, &staff, json!({ "email": "Nieuw-Lid@zuid.nl" })).await).await.0, 409);

    post(&app, &add, &staff, json!({ "email": "stil@zuid.nl", "sendEmail": false })).await;
    // the letters: a notice to the account, an invitation to the address; none when switched off
    let letters: Vec<(String, Option<String>, Option<String>)> = sqlx::query_as(
        "select payload ->> 'template', payload ->> 'user_id', payload ->> 'address' from jobs where kind = 'email'
            and payload ->> 'template' like 'organisation%' order by created_at",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let arts: String = sqlx::query_scalar("select id from users where email = 'arts@zuid.nl'").fetch_one(&pool).await.unwrap();
    assert_eq!(
        letters,
        vec![
            ("organisation_access".to_owned(), Some(arts.clone()), None),
            ("organisation_invitation".to_owned(), None, Some("nieuw-lid@zuid.nl".to_owned())),
        ]
    );
    let removed = post(&app, "/api/cms/suborganizationUserEmailDelete/stil@zuid.nl", &staff, json!(sub)).await;
    assert_eq!(removed.status(), 204);
    // an admin flag that changes sends its letter; the same flag again sends none
    let admin = format!("/api/cms/suborganizationAdminUser/{sub}/{arts}");
    assert_eq!(post(&app, &admin, &staff, json!(true)).await.status(), 204);
    assert_eq!(post(&app, &admin, &staff, json!(true)).await.status(), 204);
    assert_eq!(post(&app, &admin, &staff, json!(false)).await.status(), 204);
    let admin_letters: i64 =
        sqlx::query_scalar("select count(*) from jobs where payload ->> 'template' = 'organisation_admin'").fetch_one(&pool).await.unwrap();
    assert_eq!(admin_letters, 2);
    assert_eq!(post(&app, &format!("/api/cms/suborganizationAdminUser/{sub}/nobody"), &staff, json!(true)).await.status(), 404);

    let with_users: Value = app.get_with_token(&format!("/api/cms/suborganizationsWithUsers/{sub}"), &staff).await.json().await.unwrap();
    assert_eq!(with_users["users"][0]["email"], "arts@zuid.nl");
    assert_eq!(with_users["userEmails"], json!([{ "email": "nieuw-lid@zuid.nl", "isAdminUser": true }]));

    // the account has access through the organisation
    let has = |token: String| {
        let app = &app;
        async move { app.get_with_token("/api/user/hasUserActiveOrganizationSubscription", &token).await.json::<Value>().await.unwrap() }
    };
    assert_eq!(has(gp.clone()).await, json!(true));
    assert_eq!(app.get_with_token("/api/template/entry", &gp).await.status(), 200, "the subscription gate lets them through");

    // the list: the spec's shape, the name after the first 27 characters
    let list: Value = app.get_with_token("/api/cms/organizationsubscriptions/all", &staff).await.json().await.unwrap();
    assert_eq!(list["total"], 2);
    let row = &list["rows"][0];
    assert_eq!(
        (row["description"].as_str(), row["organizationName"].as_str()),
        (Some("Organisatie abonnement van Zorggroep Zuid"), Some("Zorggroep Zuid"))
    );
    assert_eq!(row["subOrganizationName"], "Praktijk De Linde");

    // shortening the term into the past switches access off at once; an empty start starts at once
    let duration = format!("/api/cms/setDurationForSubOrganization/{sub}");
    for (body, expected) in [
        (json!({ "endDate": "" }), "Einddatum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30"),
        (json!({ "startDate": "1-1-2020", "endDate": "2020-01-31" }), "Startdatum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30"),
        (json!({ "startDate": "2020-02-01", "endDate": "2020-01-31" }), "Einddatum kan niet eerder zijn dan de startdatum."),
    ] {
        assert_eq!(message(post(&app, &duration, &staff, body).await).await, (400, expected.to_owned()));
    }
    let past: Value = post(&app, &duration, &staff, json!({ "endDate": "2020-01-31" })).await.json().await.unwrap();
    assert_eq!(past["subscriptionsChanged"], 2);
    assert_eq!(has(gp.clone()).await, json!(false));
    let active_only: Value =
        app.get_with_token("/api/cms/organizationsubscriptions/all?activeOnly=true", &staff).await.json().await.unwrap();
    assert_eq!(active_only["total"], 0);
    post(&app, &duration, &staff, json!({ "startDate": "", "endDate": "2099-12-31" })).await;
    assert_eq!(has(gp.clone()).await, json!(true));

    // a term that starts later: off until the nightly sweep sees its first day
    let tomorrow = domain::billing::today().succ_opt().unwrap();
    post(&app, &duration, &staff, json!({ "startDate": tomorrow.to_string(), "endDate": "2099-12-31" })).await;
    assert_eq!(has(gp.clone()).await, json!(false));
    domain::billing::sweeps::expire(&pool, tomorrow).await.unwrap();
    let on: bool = sqlx::query_scalar("select bool_and(is_active) from organisation_subscriptions").fetch_one(&pool).await.unwrap();
    assert!(on, "the sweep switched them on");

    // a term on main level: the sub-organisation's own term is refused from then on
    post(&app, &format!("/api/cms/setDurationForMainOrganization/{main}"), &staff, json!({ "endDate": "2099-06-30" })).await;
    assert_eq!(has(gp.clone()).await, json!(true));
    let refused = message(post(&app, &duration, &staff, json!({ "endDate": "2099-12-31" })).await).await;
    assert_eq!(refused.0, 409);

    // the invited address signs in later: linked, with access and its admin flag
    let invited = app.access_token_unsubscribed("nieuw-lid@zuid.nl").await;
    assert_eq!(has(invited.clone()).await, json!(true));
    assert_eq!(app.get_with_token("/api/template/entry", &invited).await.status(), 200);
    let with_users: Value = app.get_with_token(&format!("/api/cms/suborganizationsWithUsers/{sub}"), &staff).await.json().await.unwrap();
    assert_eq!(with_users["userEmails"], json!([]));
    let admins: Vec<bool> = with_users["users"].as_array().unwrap().iter().map(|u| u["isAdminUser"].as_bool().unwrap()).collect();
    assert_eq!(admins.len(), 2);
    assert!(admins.contains(&true));

    // two members: each sees the organisation subscription once, their own, never a colleague's
    for token in [&gp, &invited] {
        let own: Value = app.get_with_token("/api/user/getOrganizationSubscriptionForUser", token).await.json().await.unwrap();
        assert_eq!(own.as_array().map(Vec::len), Some(1), "{own}");
    }

    // removing a user takes their organisation subscription with it
    let removed = post(&app, &format!("/api/cms/suborganizationUserDelete/{arts}"), &staff, json!(sub)).await;
    assert_eq!(removed.status(), 204);
    assert_eq!(has(gp).await, json!(false));
}

#[sqlx::test(migrations = "../migrations")]
async fn only_duplicates_are_deleted_problems_are_listed_and_the_sync_links_waiting_addresses(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let staff = app.access_token_for("staff@example.nl").await;
    let (main, sub) = organisation(&app, &staff, "2099-12-31").await;
    post(&app, &format!("/api/cms/suborganizationLinkingToUsers/{main}/{sub}"), &staff, json!({ "email": "later@zuid.nl" })).await;
    let list: Value = app.get_with_token("/api/cms/organizationsubscriptions/all", &staff).await.json().await.unwrap();
    let only = list["rows"][0]["id"].as_str().unwrap().to_owned();
    let delete = |id: &str| format!("/api/cms/deleteOrganizationSubscription?organizationSubscriptionId={id}");
    assert_eq!(
        message(post(&app, &delete(&only), &staff, Value::Null).await).await,
        (409, "Dit is geen dubbel ingevoerd abonnement, verwijder de gebruiker via de Organisatie tab.".to_owned())
    );
    let copy: uuid::Uuid = sqlx::query_scalar(
        "insert into organisation_subscriptions (id, description, user_email, organisation_id, level_id, valid_until, is_active)
         select gen_random_uuid(), description, user_email, organisation_id, level_id, valid_until, is_active
           from organisation_subscriptions where id = $1::text::uuid returning id",
    )
    .bind(&only)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(post(&app, &delete(&copy.to_string()), &staff, Value::Null).await.status(), 204);
    assert_eq!(post(&app, &delete(&only), &staff, Value::Null).await.status(), 409, "the last one is no duplicate any more");

    // an account made for the waiting address without signing in (an import): a problem until the sync
    sqlx::query("insert into users (id, email, preferred_username) values ('kc-later', 'later@zuid.nl', 'later')")
        .execute(&pool)
        .await
        .unwrap();
    let email_problems: Value =
        app.get_with_token("/api/cms/getAllOrganizationSubscriptionsProblems/email", &staff).await.json().await.unwrap();
    assert_eq!(email_problems.as_array().unwrap().len(), 1);
    assert_eq!(email_problems[0]["email"], "later@zuid.nl");
    // a member without an organisation subscription
    sqlx::query("insert into users (id, email, preferred_username) values ('kc-los', 'los@zuid.nl', 'los')").execute(&pool).await.unwrap();
    sqlx::query("insert into organisation_members (level_id, user_id) values ($1::text::uuid, 'kc-los')")
        .bind(&sub)
        .execute(&pool)
        .await
        .unwrap();
    let linked: Value = app.get_with_token("/api/cms/getAllOrganizationSubscriptionsProblems/linked", &staff).await.json().await.unwrap();
    assert_eq!(linked[0]["email"], "los@zuid.nl");

    let synced: Value = post(&app, "/api/cms/tribe", &staff, Value::Null).await.json().await.unwrap();
    assert_eq!(synced["linked"], 1);
    let email_problems: Value =
        app.get_with_token("/api/cms/getAllOrganizationSubscriptionsProblems/email", &staff).await.json().await.unwrap();
    assert_eq!(email_problems, json!([]));
    let owner: Option<String> = sqlx::query_scalar("select user_id from organisation_subscriptions where user_email = 'later@zuid.nl'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(owner.as_deref(), Some("kc-later"));

    // a HIS linked to a sub-organisation is not deleted
    let his: Value = post(&app, "/api/cms/HIS", &staff, json!({ "name": "Praktijkhis" })).await.json().await.unwrap();
    let set = post(&app, &format!("/api/cms/setHISforOrganization/{sub}"), &staff, his["id"].clone()).await;
    assert_eq!(set.json::<Value>().await.unwrap()["his"]["name"], "Praktijkhis");
    let refused =
        app.http.delete(app.url(&format!("/api/cms/his/{}", his["id"].as_str().unwrap()))).bearer_auth(&staff).send().await.unwrap();
    assert_eq!(message(refused).await, (409, "Kon HIS niet verwijderen, er zijn gebruikers gelinkt aan deze HIS".to_owned()));

    // deleting the sub-organisation and the main organisation takes their subscriptions along
    assert_eq!(post(&app, &format!("/api/cms/suborganizatioDelete/{main}/{sub}"), &staff, Value::Null).await.status(), 204);
    assert_eq!(post(&app, &format!("/api/cms/organizatioDelete/{main}"), &staff, Value::Null).await.status(), 204);
    let left: i64 = sqlx::query_scalar("select count(*) from organisation_subscriptions").fetch_one(&pool).await.unwrap();
    assert_eq!(left, 0);
    assert_eq!(post(&app, &format!("/api/cms/organizatioDelete/{main}"), &staff, Value::Null).await.status(), 404);
}

#[sqlx::test(migrations = "../migrations")]
async fn one_organisation_subscription_is_switched_off_or_given_its_own_last_day_and_the_terms_keep_it(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let staff = app.access_token_for("staff@example.nl").await;
    let (main, sub) = organisation(&app, &staff, "2099-12-31").await;
    for email in ["anne@zuid.nl", "bram@zuid.nl"] {
        let added = post(&app, &format!("/api/cms/suborganizationLinkingToUsers/{main}/{sub}"), &staff, json!({ "email": email })).await;
        assert!(added.status().is_success());
    }
    let row = async |email: &str| -> Value {
        let list: Value = app.get_with_token("/api/cms/organizationsubscriptions/all", &staff).await.json().await.unwrap();
        list["rows"].as_array().unwrap().iter().find(|r| r["userEmail"] == email).unwrap().clone()
    };
    let term = |r: &Value| (r["validUntil"].clone(), r["active"].clone());
    let anne = row("anne@zuid.nl").await["id"].as_str().unwrap().to_owned();
    let active = format!("/api/cms/organizationsubscription/active/{anne}");
    let valid = format!("/api/cms/organizationsubscription/valid/{anne}");
    let new_term = async |end: &str| {
        let set = post(&app, &format!("/api/cms/setDurationForSubOrganization/{sub}"), &staff, json!({ "endDate": end })).await;
        assert_eq!(set.status(), 200);
    };

    // switched off, it stays off when the terms are written again (the sync, a new term, the nightly sweep)
    let off: Value = post(&app, &active, &staff, json!(false)).await.json().await.unwrap();
    assert_eq!((off["active"].clone(), off["switchedOff"].clone()), (json!(false), json!(true)));
    assert_eq!(post(&app, "/api/cms/tribe", &staff, Value::Null).await.status(), 200);
    new_term("2099-06-30").await;
    domain::billing::sweeps::expire(&pool, domain::billing::today()).await.unwrap();
    assert_eq!(term(&row("anne@zuid.nl").await), (json!("2099-06-30"), json!(false)));
    assert_eq!(term(&row("bram@zuid.nl").await), (json!("2099-06-30"), json!(true)), "a colleague follows the term");
    // switched on again, it is active while the term runs
    let on: Value = post(&app, &active, &staff, json!(true)).await.json().await.unwrap();
    assert_eq!((on["active"].clone(), on["switchedOff"].clone()), (json!(true), json!(false)));

    // its own last day: checked as the other dates are, and kept through a new term
    assert_eq!(
        message(post(&app, &valid, &staff, json!("31-12-2030")).await).await,
        (400, "Datum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30".to_owned())
    );
    assert_eq!(
        message(post(&app, &valid, &staff, json!("2030-02-30")).await).await,
        (400, "Subscription kon niet worden geupdate. Ongeldige datum.".to_owned())
    );
    let own: Value = post(&app, &valid, &staff, json!("2030-12-31")).await.json().await.unwrap();
    assert_eq!(
        (own["validUntil"].clone(), own["ownValidUntil"].clone(), own["active"].clone()),
        (json!("2030-12-31"), json!("2030-12-31"), json!(true))
    );
    new_term("2098-01-31").await;
    assert_eq!(term(&row("anne@zuid.nl").await), (json!("2030-12-31"), json!(true)));
    assert_eq!(term(&row("bram@zuid.nl").await), (json!("2098-01-31"), json!(true)));
    // a day in the past switches it off, and the nightly sweep leaves it so
    let past: Value = post(&app, &valid, &staff, json!("2020-01-01")).await.json().await.unwrap();
    assert_eq!(term(&past), (json!("2020-01-01"), json!(false)));
    domain::billing::sweeps::expire(&pool, domain::billing::today()).await.unwrap();
    assert_eq!(term(&row("anne@zuid.nl").await), (json!("2020-01-01"), json!(false)));
    // without one it follows its organisation's term again
    let back: Value = post(&app, &valid, &staff, json!("")).await.json().await.unwrap();
    assert_eq!(
        (back["validUntil"].clone(), back["ownValidUntil"].clone(), back["active"].clone()),
        (json!("2098-01-31"), Value::Null, json!(true))
    );

    // the audit log says what changed, of whom
    let logged: Vec<String> =
        domain::audit::of_subject(&pool, "organisation_subscription", &anne).await.unwrap().into_iter().map(|(_, log)| log).collect();
    assert_eq!(
        logged,
        [
            "staff@example.nl zette 'Actief' van het organisatie abonnement van anne@zuid.nl (Praktijk De Linde) op nee (was ja)",
            "staff@example.nl zette 'Actief' van het organisatie abonnement van anne@zuid.nl (Praktijk De Linde) op ja (was nee)",
            "staff@example.nl wijzigde 'Geldig tot' van het organisatie abonnement van anne@zuid.nl (Praktijk De Linde) naar 31 december 2030 (was 30 juni 2099)",
            "staff@example.nl wijzigde 'Geldig tot' van het organisatie abonnement van anne@zuid.nl (Praktijk De Linde) naar 1 januari 2020 (was 31 december 2030)",
            "staff@example.nl wijzigde 'Geldig tot' van het organisatie abonnement van anne@zuid.nl (Praktijk De Linde) naar 31 januari 2098 (volgt de organisatie) (was 1 januari 2020)",
        ]
    );

    // one that does not exist
    let missing = format!("/api/cms/organizationsubscription/active/{}", uuid::Uuid::new_v4());
    assert_eq!(message(post(&app, &missing, &staff, json!(true)).await).await, (404, "Organisatie abonnement niet gevonden".to_owned()));
}
