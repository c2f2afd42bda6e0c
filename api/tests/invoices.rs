//! Invoices over HTTP with the local bookkeeping: the owner's (and staff's, audited) download
//! through a signed, expiring link; the staff calls 'Moneybird contact maken' and 'Factuur maken' with
//! every role and refusal; and the webhook and staff buttons pressed at once make one invoice.

mod common;

use std::time::{Duration, SystemTime};

use common::TestApp;
use serde_json::{Value, json};
use sqlx::PgPool;

const PRACTICE: &str = "5b0e1a52-2f1c-4c57-9a6e-000000000003";
const NOWHERE: &str = "00000000-0000-4000-8000-000000000000";

async fn post_json(app: &TestApp, path: &str, token: Option<&str>, body: &Value) -> (u16, Value) {
    let request = app.http.post(app.url(path)).json(body);
    let request = match token {
        Some(token) => request.bearer_auth(token),
        None => request,
    };
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

fn billing() -> Value {
    json!({
        "contactName": "Anne de Vries", "practiceName": "Huisartsenpraktijk De Linde", "sendInvoiceToEmail": "factuur@delinde.nl",
        "phoneNumber": "0201234567", "streetAddress": "Lindelaan", "houseNumber": "12", "houseNumberAddition": "",
        "postcode": "1234AB", "city": "Amsterdam", "subscriptionType": "MONTHLY", "userAmount": 2, "pricePerUser": 39.0,
        "tierId": PRACTICE, "isIndividual": false, "description": "", "intervalMonths": 1, "discountId": null,
    })
}

/// A first payment of the user in the local checkout, not yet paid: (our id, the checkout's page).
async fn open_payment(app: &TestApp, token: &str) -> (String, String) {
    let (status, link) = post_json(app, "/payment/paymentinfo/getPaymentLink", Some(token), &billing()).await;
    assert_eq!(status, 200, "{link}");
    let payments: Value = app.get_with_token("/payment/subscription/getPaymentsForUser", token).await.json().await.unwrap();
    (payments[0]["id"].as_str().unwrap().to_owned(), link["href"].as_str().unwrap().to_owned())
}

async fn wait_until(what: &str, mut check: impl AsyncFnMut() -> bool) {
    for _ in 0..1500 {
        if check().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{what} did not happen within 30 s");
}

async fn status_of(pool: &PgPool, payment: &str) -> String {
    sqlx::query_scalar("select status from payments where id = $1::uuid").bind(payment).fetch_one(pool).await.unwrap()
}

async fn invoices(pool: &PgPool, payment: &str) -> i64 {
    sqlx::query_scalar("select count(*) from invoices where payment_id = $1::uuid").bind(payment).fetch_one(pool).await.unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn the_staff_calls_need_staff_and_a_paid_payment_with_an_amount(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let user = app.access_token_unsubscribed("praktijk@example.nl").await;
    let staff = app.access_token_for("staff@example.nl").await;
    let (payment, _) = open_payment(&app, &user).await;
    for kind in ["contact", "invoice"] {
        let path = format!("/payment/manage/payment/{kind}/{payment}");
        assert_eq!(post_json(&app, &path, None, &Value::Null).await.0, 401, "{path} anonymous");
        let (status, body) = post_json(&app, &path, Some(&user), &Value::Null).await;
        assert_eq!(status, 403, "{path} as a user: {body}");
        let (status, body) = post_json(&app, &format!("/payment/manage/payment/{kind}/{NOWHERE}"), Some(&staff), &Value::Null).await;
        assert_eq!((status, body["message"].as_str()), (404, Some("Betaling niet gevonden")));
        let (status, body) = post_json(&app, &path, Some(&staff), &Value::Null).await;
        assert_eq!((status, body["message"].as_str()), (409, Some("Deze betaling is (nog) niet betaald.")), "{path}");
        let bad = app.http.post(app.url(&format!("/payment/manage/payment/{kind}/not-a-uuid"))).bearer_auth(&staff).send().await.unwrap();
        assert_eq!(bad.status(), 400);
    }
    // paid, but without an amount: no invoice
    sqlx::query("update payments set status = 'PAID', amount_cents = 0 where id = $1::uuid").bind(&payment).execute(&pool).await.unwrap();
    let (status, body) = post_json(&app, &format!("/payment/manage/payment/invoice/{payment}"), Some(&staff), &Value::Null).await;
    assert_eq!((status, body["message"].as_str()), (409, Some("Een betaling zonder bedrag krijgt geen factuur.")));
    // a contact may still be made
    let (status, body) = post_json(&app, &format!("/payment/manage/payment/contact/{payment}"), Some(&staff), &Value::Null).await;
    assert_eq!(status, 202, "{body}");
    let job = body["jobId"].as_str().unwrap();
    let view: Value = app.get_with_token(&format!("/api/jobs/{job}"), &staff).await.json().await.unwrap();
    assert_eq!(view["kind"], "create_contact");
    let caused_by: Option<String> =
        sqlx::query_scalar("select caused_by from jobs where id = $1::uuid").bind(job).fetch_one(&pool).await.unwrap();
    assert!(caused_by.is_some(), "the staff member who asked is recorded");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_owner_and_staff_download_the_invoice_through_a_signed_link_that_expires(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let worker = app.start_worker(&[]);
    let owner = app.access_token_unsubscribed("praktijk@example.nl").await;
    let other = app.access_token_for("ander@example.nl").await;
    let staff = app.access_token_for("staff@example.nl").await;
    let (payment, checkout) = open_payment(&app, &owner).await;
    // not paid yet: nothing to download
    let (status, _) = post_json(&app, "/payment/subscription/getInvoiceDownload", Some(&owner), &json!(payment)).await;
    assert_eq!(status, 404);
    let chosen = app.http.post(&checkout).form(&[("outcome", "paid")]).send().await.unwrap();
    assert_eq!(chosen.status(), 303);
    let mut answer = Value::Null;
    wait_until("the invoice", async || {
        let (status, body) = post_json(&app, "/payment/subscription/getInvoiceDownload", Some(&owner), &json!(payment)).await;
        if status == 409 {
            assert_eq!(body["message"], "De factuur wordt nog gemaakt.");
        }
        answer = body;
        status == 200
    })
    .await;
    let link = answer["downloadLink"].as_str().unwrap().to_owned();
    assert!(link.starts_with(&app.url("/payment/invoice/li_")), "{link}");
    let pdf = app.http.get(&link).send().await.unwrap();
    assert_eq!(pdf.status(), 200);
    assert_eq!(pdf.headers()["content-type"], "application/pdf");
    let disposition = pdf.headers()["content-disposition"].to_str().unwrap().to_owned();
    let number: String =
        sqlx::query_scalar("select number from invoices where payment_id = $1::uuid").bind(&payment).fetch_one(&pool).await.unwrap();
    assert_eq!(disposition, format!("attachment; filename=\"factuur-{number}.pdf\""));
    assert!(pdf.bytes().await.unwrap().starts_with(b"%PDF"));

    // by the invoice's own id too; someone else gets nothing, staff get a link
    let invoice_id: String =
        sqlx::query_scalar("select id::text from invoices where payment_id = $1::uuid").bind(&payment).fetch_one(&pool).await.unwrap();
    assert_eq!(post_json(&app, "/payment/subscription/getInvoiceDownload", Some(&owner), &json!(invoice_id)).await.0, 200);
    let (status, body) = post_json(&app, "/payment/subscription/getInvoiceDownload", Some(&other), &json!(payment)).await;
    assert_eq!((status, body["message"].as_str()), (404, Some("Factuur niet gevonden")));
    assert_eq!(post_json(&app, "/payment/subscription/getInvoiceDownload", Some(&other), &json!(invoice_id)).await.0, 404);
    // the owner's downloads and the refusals are not audited; staff's link to the user's invoice
    // (name, address, KvK) is, naming whose
    let audited = "select action, subject_id, concerns_user_id, log from audit_log order by id";
    assert!(sqlx::query(audited).fetch_all(&pool).await.unwrap().is_empty());
    assert_eq!(post_json(&app, "/payment/subscription/getInvoiceDownload", Some(&staff), &json!(payment)).await.0, 200);
    assert_eq!(post_json(&app, "/payment/subscription/getInvoiceDownload", None, &json!(payment)).await.0, 401);
    let owner_id: String =
        sqlx::query_scalar("select user_id from payments where id = $1::uuid").bind(&payment).fetch_one(&pool).await.unwrap();
    let entries: Vec<(String, String, Option<String>, String)> = sqlx::query_as(audited).fetch_all(&pool).await.unwrap();
    assert_eq!(
        entries,
        vec![(
            "user.read_invoice".to_owned(),
            payment.clone(),
            Some(owner_id),
            format!("staff@example.nl downloadde de factuur van praktijk@example.nl (betaling {payment})")
        )]
    );

    // a link altered, or for another invoice, or expired, does not open
    let url = url::Url::parse(&link).unwrap();
    let query: std::collections::HashMap<_, _> = url.query_pairs().into_owned().collect();
    let tampered = link.replace(&query["signature"], "AAAA");
    let refused = app.http.get(&tampered).send().await.unwrap();
    assert_eq!(refused.status(), 403);
    assert_eq!(refused.json::<Value>().await.unwrap()["message"], "Deze downloadlink is ongeldig.");
    let id = url.path().trim_start_matches("/payment/invoice/").trim_end_matches(".pdf").to_owned();
    let later = query["expires"].parse::<u64>().unwrap() + 3600;
    let moved = link.replace(&format!("expires={}", query["expires"]), &format!("expires={later}"));
    assert_eq!(app.http.get(&moved).send().await.unwrap().status(), 403);
    let expired = app.state.invoice_links.link(&id, SystemTime::now() - Duration::from_secs(1));
    let gone = app.http.get(&expired).send().await.unwrap();
    assert_eq!(gone.status(), 410);
    assert_eq!(gone.json::<Value>().await.unwrap()["error"], "link_expired");
    let unknown = app.state.invoice_links.link("li_00000000000000000000000000", SystemTime::now() + Duration::from_secs(60));
    assert_eq!(app.http.get(&unknown).send().await.unwrap().status(), 404);

    // staff pressing 'Factuur maken' now: it has one
    let (status, body) = post_json(&app, &format!("/payment/manage/payment/invoice/{payment}"), Some(&staff), &Value::Null).await;
    assert_eq!((status, body["message"].as_str()), (409, Some("Deze betaling heeft al een factuur.")));
    worker.stop().await;
}

#[sqlx::test(migrations = "../migrations")]
async fn the_webhook_and_staff_buttons_at_once_make_one_invoice(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let owner = app.access_token_unsubscribed("praktijk@example.nl").await;
    let staff = app.access_token_for("staff@example.nl").await;
    let (payment, checkout) = open_payment(&app, &owner).await;
    // paid while no worker runs: the sync job waits
    let chosen = app.http.post(&checkout).form(&[("outcome", "paid")]).send().await.unwrap();
    assert_eq!(chosen.status(), 303);
    let provider_id: String =
        sqlx::query_scalar("select provider_payment_id from payments where id = $1::uuid").bind(&payment).fetch_one(&pool).await.unwrap();
    let worker = app.start_worker(&[]);
    wait_until("the payment PAID", async || status_of(&pool, &payment).await == "PAID").await;
    // now everything at once: webhook deliveries and both staff buttons, five times over
    let mut calls = Vec::new();
    for _ in 0..5 {
        let (app, staff, payment, provider_id) = (&app, &staff, payment.clone(), provider_id.clone());
        calls.push(async move {
            let (invoice_path, contact_path) =
                (format!("/payment/manage/payment/invoice/{payment}"), format!("/payment/manage/payment/contact/{payment}"));
            let webhook = app.http.post(app.url("/payment/webhook")).form(&[("id", provider_id.as_str())]).send();
            let invoice = post_json(app, &invoice_path, Some(staff), &Value::Null);
            let contact = post_json(app, &contact_path, Some(staff), &Value::Null);
            let (webhook, (invoice, _), (contact, _)) = tokio::join!(webhook, invoice, contact);
            assert_eq!(webhook.unwrap().status(), 200);
            assert!(invoice == 202 || invoice == 409, "{invoice}");
            assert_eq!(contact, 202);
        });
    }
    futures::future::join_all(calls).await;
    wait_until("every bookkeeping job done", async || {
        let open: i64 = sqlx::query_scalar(
            "select count(*) from jobs where kind in ('sync_payment', 'create_contact', 'create_invoice') and state in ('queued', 'running', 'retrying')",
        )
        .fetch_one(&pool)
        .await
        .unwrap();
        open == 0
    })
    .await;
    assert_eq!(invoices(&pool, &payment).await, 1);
    let (contacts, numbers): (i64, i64) = sqlx::query_as(
        "select (select count(*) from bookkeeping_contacts c join payments p on p.user_id = c.user_id where p.id = $1::uuid),
                (select count(*) from local_invoices where document->'draft'->>'reference' = 'SPK-' || $1)",
    )
    .bind(&payment)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!((contacts, numbers), (1, 1));
    let failed: i64 = sqlx::query_scalar("select count(*) from jobs where state in ('failed', 'dead')").fetch_one(&pool).await.unwrap();
    assert_eq!(failed, 0);
    worker.stop().await;
}

/// Moneybird as its API answers (the calls the bookkeeping makes), invoices in memory.
#[derive(Default)]
struct Moneybird {
    contacts: Vec<Value>,
    invoices: Vec<Value>,
    calls: Vec<String>,
}

type Books = std::sync::Arc<std::sync::Mutex<Moneybird>>;

async fn moneybird_double() -> (String, Books) {
    use axum::extract::{Path as P, Query as Q, State as S};
    use axum::http::StatusCode;
    use axum::response::IntoResponse;
    use axum::routing::{get, patch, post};
    use axum::{Json as J, Router};
    let books = Books::default();
    let log = |b: &Books, call: String| b.lock().unwrap().calls.push(call);
    let app = Router::new()
        .route(
            "/api/v2/{adm}/contacts/customer_id/{file}",
            get(move |S(b): S<Books>, P((_, file)): P<(String, String)>| async move {
                log(&b, format!("GET contact {file}"));
                let id = file.trim_end_matches(".json");
                let found = b.lock().unwrap().contacts.iter().find(|c| c["customer_id"] == id).cloned();
                match found {
                    Some(c) => J(c).into_response(),
                    None => (StatusCode::NOT_FOUND, J(json!({"error": "record not found"}))).into_response(),
                }
            }),
        )
        .route(
            "/api/v2/{adm}/contacts.json",
            post(move |S(b): S<Books>, J(body): J<Value>| async move {
                log(&b, "POST contact".into());
                let mut contact = body["contact"].clone();
                let mut books = b.lock().unwrap();
                contact["id"] = json!(format!("1000000000000000{:02}", books.contacts.len() + 1));
                books.contacts.push(contact.clone());
                (StatusCode::CREATED, J(contact))
            }),
        )
        .route(
            "/api/v2/{adm}/tax_rates.json",
            get(|| async { J(json!([{"id": "210000000000000001", "name": "21% btw", "percentage": "21.0", "tax_rate_type": "sales_invoice", "active": true, "country": null}])) }),
        )
        .route(
            "/api/v2/{adm}/sales_invoices.json",
            get(move |S(b): S<Books>, Q(q): Q<std::collections::HashMap<String, String>>| async move {
                log(&b, "GET invoices".into());
                let reference = q.get("filter").and_then(|f| f.split(',').find_map(|p| p.strip_prefix("reference:"))).unwrap_or("").to_owned();
                let found: Vec<Value> = b.lock().unwrap().invoices.iter().filter(|i| i["reference"] == reference.as_str()).cloned().collect();
                J(json!(found))
            })
            .post(move |S(b): S<Books>, J(body): J<Value>| async move {
                log(&b, "POST invoice".into());
                let mut invoice = body["sales_invoice"].clone();
                let mut books = b.lock().unwrap();
                let id = format!("2000000000000000{:02}", books.invoices.len() + 1);
                invoice["id"] = json!(id);
                invoice["state"] = json!("draft");
                invoice["invoice_id"] = Value::Null;
                invoice["payments"] = json!([]);
                invoice["url"] = json!(format!("https://moneybird.example/online_sales_invoices/{id}"));
                books.invoices.push(invoice.clone());
                (StatusCode::CREATED, J(invoice))
            }),
        )
        .route(
            "/api/v2/{adm}/sales_invoices/find_by_reference/{file}",
            get(move |S(b): S<Books>, P((_, file)): P<(String, String)>| async move {
                log(&b, "GET invoice by reference".into());
                let reference = file.trim_end_matches(".json");
                let found = b.lock().unwrap().invoices.iter().rev().find(|i| i["reference"] == reference).cloned();
                match found {
                    Some(i) => J(i).into_response(),
                    None => (StatusCode::NOT_FOUND, J(json!({"error": "record not found"}))).into_response(),
                }
            }),
        )
        .route(
            "/api/v2/{adm}/sales_invoices/{id}/send_invoice.json",
            patch(move |S(b): S<Books>, P((_, id)): P<(String, String)>, J(body): J<Value>| async move {
                log(&b, format!("SEND {}", body["sales_invoice_sending"]["email_address"].as_str().unwrap_or("")));
                let mut books = b.lock().unwrap();
                let number = format!("2026-{:04}", books.invoices.iter().filter(|i| i["state"] != "draft").count() + 1);
                let invoice = books.invoices.iter_mut().find(|i| i["id"] == id.as_str()).unwrap();
                invoice["state"] = json!("open");
                invoice["invoice_id"] = json!(number);
                J(invoice.clone())
            }),
        )
        .route(
            "/api/v2/{adm}/sales_invoices/{id}/payments.json",
            post(move |S(b): S<Books>, P((_, id)): P<(String, String)>, J(body): J<Value>| async move {
                log(&b, format!("PAY {} {}", body["payment"]["price"].as_str().unwrap_or(""), body["payment"]["transaction_identifier"].as_str().unwrap_or("")));
                let mut books = b.lock().unwrap();
                let invoice = books.invoices.iter_mut().find(|i| i["id"] == id.as_str()).unwrap();
                invoice["payments"].as_array_mut().unwrap().push(body["payment"].clone());
                invoice["state"] = json!("paid");
                (StatusCode::CREATED, J(body["payment"].clone()))
            }),
        )
        .route(
            "/api/v2/{adm}/sales_invoices/{file}",
            get(move |S(b): S<Books>, P((_, file)): P<(String, String)>| async move {
                let id = file.trim_end_matches(".json");
                let found = b.lock().unwrap().invoices.iter().find(|i| i["id"] == id).cloned();
                match found {
                    Some(i) => J(i).into_response(),
                    None => StatusCode::NOT_FOUND.into_response(),
                }
            }),
        )
        .route(
            "/api/v2/{adm}/sales_invoices/{id}/download_pdf.json",
            get(|P((_, id)): P<(String, String)>| async move {
                (StatusCode::FOUND, [("location", format!("https://moneybird-files.example/{id}.pdf?expires=60"))])
            }),
        )
        .with_state(books.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/api/v2/", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, books)
}

#[sqlx::test(migrations = "../migrations")]
async fn with_moneybird_the_invoice_is_made_sent_and_paid_there_once(pool: PgPool) {
    let (base, books) = moneybird_double().await;
    let env = vec![
        ("APP_MONEYBIRD_API_URL", base),
        ("APP_MONEYBIRD_API_TOKEN", "token".to_owned()),
        ("APP_MONEYBIRD_ADMINISTRATION_ID", "123456789".to_owned()),
    ];
    let app = TestApp::spawn_with(pool.clone(), common::Options { env, ..Default::default() }).await;
    let worker = app.start_worker(&[]);
    let owner = app.access_token_unsubscribed("praktijk@example.nl").await;
    let (payment, checkout) = open_payment(&app, &owner).await;
    let chosen = app.http.post(&checkout).form(&[("outcome", "paid")]).send().await.unwrap();
    assert_eq!(chosen.status(), 303);
    let mut answer = Value::Null;
    wait_until("the invoice", async || {
        let (status, body) = post_json(&app, "/payment/subscription/getInvoiceDownload", Some(&owner), &json!(payment)).await;
        answer = body;
        status == 200
    })
    .await;
    let (invoice_id, contact_id, url): (Option<String>, Option<String>, Option<String>) =
        sqlx::query_as("select moneybird_invoice_id, moneybird_contact_id, sales_invoices_url from payments where id = $1::uuid")
            .bind(&payment)
            .fetch_one(&pool)
            .await
            .unwrap();
    let number: String =
        sqlx::query_scalar("select number from invoices where payment_id = $1::uuid").bind(&payment).fetch_one(&pool).await.unwrap();
    let provider_id: String =
        sqlx::query_scalar("select provider_payment_id from payments where id = $1::uuid").bind(&payment).fetch_one(&pool).await.unwrap();
    let user_id: String =
        sqlx::query_scalar("select user_id from payments where id = $1::uuid").bind(&payment).fetch_one(&pool).await.unwrap();
    worker.stop().await;
    // the seeded GP's payment is invoiced there too; ours once
    let books = books.lock().unwrap();
    let ours: Vec<&Value> = books.invoices.iter().filter(|i| i["reference"] == format!("SPK-{payment}").as_str()).collect();
    assert_eq!(ours.len(), 1, "{:?}", books.calls);
    let invoice = ours[0];
    assert_eq!(invoice_id.as_ref(), invoice["id"].as_str().map(str::to_owned).as_ref());
    assert_eq!(url.as_ref(), invoice["url"].as_str().map(str::to_owned).as_ref());
    assert_eq!(Some(number.as_str()), invoice["invoice_id"].as_str());
    assert_eq!(answer["downloadLink"], format!("https://moneybird-files.example/{}.pdf?expires=60", invoice["id"].as_str().unwrap()));
    assert_eq!(invoice["prices_are_incl_tax"], true);
    assert_eq!(invoice["details_attributes"][0]["tax_rate_id"], "210000000000000001");
    assert_eq!(invoice["payments"].as_array().unwrap().len(), 1);
    let calls = |call: &str| books.calls.iter().filter(|c| *c == call).count();
    assert_eq!(calls("SEND factuur@delinde.nl"), 1, "{:?}", books.calls);
    assert_eq!(calls(&format!("PAY 78.00 {provider_id}")), 1, "{:?}", books.calls);
    let contact: Vec<&Value> = books.contacts.iter().filter(|c| c["customer_id"] == user_id.as_str()).collect();
    assert_eq!(contact.len(), 1);
    assert_eq!(contact[0]["company_name"], "Huisartsenpraktijk De Linde");
    assert_eq!(contact_id.as_ref(), contact[0]["id"].as_str().map(str::to_owned).as_ref());
}
