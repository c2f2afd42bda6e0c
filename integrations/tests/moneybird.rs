//! The Moneybird client against a test double speaking Moneybird's wire format: paths
//! `/api/v2/{administration_id}/….json`, a bearer token, bodies wrapped in the resource's name,
//! ids as strings of digits, invoices numbered when sent, list filters `key:value,…`, 302 for the
//! PDF, credit invoices duplicated from their original. The double keeps contacts and invoices in
//! memory, records every request, and can be told to answer the next requests with a 429
//! (`Retry-After: 1`), a 500, or to lose the answer to a create or a duplicate.

use domain::billing::Address;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use chrono::{Datelike, NaiveDate};
use domain::billing::Cents;
use domain::billing::invoices::{Buyer, Credits, InvoiceDraft, InvoiceKind, InvoiceLine, Settlement};
use integrations::bookkeeping::moneybird::{DEFAULT_API_URL, Moneybird, MoneybirdConfig};
use integrations::bookkeeping::{Bookkeeping, BookkeepingError, ProviderInvoice};
use serde_json::{Value, json};

const ADMINISTRATION: &str = "123";
const TOKEN: &str = "test-token-84ec207ad0154a508f798e615a998ac1";

#[derive(Debug, Clone)]
struct Seen {
    method: String,
    /// After `/api/v2/{administration_id}/`.
    path: String,
    /// The decoded query.
    query: HashMap<String, String>,
    body: Value,
}

#[derive(Default)]
struct Books {
    contacts: Vec<Value>,
    invoices: Vec<Value>,
    /// invoice id -> total incl. VAT in cents
    totals: HashMap<String, Cents>,
    next_id: u64,
    next_number: u32,
    seen: Vec<Seen>,
    /// statuses to answer the next requests with, before doing anything
    script: Vec<u16>,
    /// make the next sales invoice, then answer 500 as if the connection broke
    lose_next_create: bool,
    /// duplicate the next credit invoice, then answer 500 as if the connection broke
    lose_next_duplicate: bool,
    /// answer the PDF download with a body instead of a redirect
    pdf_as_body: bool,
    /// the `User-Agent` of each request
    agents: Vec<String>,
}

type Shared = Arc<Mutex<Books>>;

fn answer(status: u16, body: Value) -> Response {
    (StatusCode::from_u16(status).unwrap(), [("content-type", "application/json; charset=utf-8")], body.to_string()).into_response()
}

impl Books {
    fn id(&mut self) -> String {
        self.next_id += 1;
        (446_241_636_268_115_000 + self.next_id).to_string()
    }

    fn invoice_mut(&mut self, id: &str) -> Option<&mut Value> {
        self.invoices.iter_mut().find(|i| i["id"] == id)
    }

    /// A detail from one of `details_attributes`, as Moneybird answers it, with its total.
    fn detail(&mut self, d: &Value, row_order: usize) -> Result<(Value, Cents), Value> {
        let amount: i64 = d["amount"].as_str().and_then(|a| a.parse().ok()).ok_or(json!({"error": {"amount": ["is ongeldig"]}}))?;
        let price = d["price"].as_str().and_then(Cents::from_decimal_string).ok_or(json!({"error": {"price": ["is ongeldig"]}}))?;
        let detail = json!({
            "id": self.id(), "administration_id": 123, "tax_rate_id": d["tax_rate_id"], "ledger_account_id": d["ledger_account_id"],
            "amount": format!("{amount} x"), "amount_decimal": format!("{amount}.0"), "description": d["description"],
            "price": d["price"], "period": d["period"], "row_order": row_order,
        });
        Ok((detail, price.times(amount)))
    }

    /// The total of an invoice's details incl. VAT.
    fn total_of(details: &[Value]) -> Cents {
        details
            .iter()
            .map(|d| {
                let amount: i64 = d["amount_decimal"].as_str().and_then(|a| a.trim_end_matches(".0").parse().ok()).unwrap();
                d["price"].as_str().and_then(Cents::from_decimal_string).unwrap().times(amount)
            })
            .sum()
    }

    /// A sales invoice from the fields of `POST sales_invoices.json`, as Moneybird answers it.
    fn make_invoice(&mut self, fields: &Value) -> Result<Value, Value> {
        let contact = self.contacts.iter().find(|c| c["id"] == fields["contact_id"]).cloned();
        let Some(contact) = contact else {
            return Err(json!({"error": {"contact_id": ["is ongeldig"]}, "details": {"contact_id": [{"error": "invalid"}]}}));
        };
        let id = self.id();
        let mut details = vec![];
        for d in fields["details_attributes"].as_array().cloned().unwrap_or_default() {
            details.push(self.detail(&d, details.len() + 1)?.0);
        }
        if details.is_empty() {
            return Err(json!({"error": {"details": ["moet minimaal één regel bevatten"]}}));
        }
        let total = Self::total_of(&details);
        let invoice = json!({
            "id": id, "administration_id": 123, "contact_id": contact["id"], "contact": contact,
            "invoice_id": null, "workflow_id": fields.get("workflow_id").cloned().unwrap_or(json!("446241636268110001")),
            "state": "draft", "invoice_date": fields["invoice_date"], "reference": fields["reference"],
            "language": fields["language"], "currency": fields["currency"], "prices_are_incl_tax": fields["prices_are_incl_tax"],
            "original_sales_invoice_id": null,
            "details": details, "payments": [], "total_paid": "0.0", "total_price_incl_tax": total.to_decimal_string(),
            "url": format!("https://moneybird.com/123/sales_invoices/{id}/7f3a9c"), "public_view_code": "7f3a9c",
        });
        self.totals.insert(id, total);
        self.invoices.push(invoice.clone());
        Ok(invoice)
    }

    /// `PATCH sales_invoices/{id}/duplicate_creditinvoice`: a draft credit invoice of a sent
    /// invoice, its lines negated, linked by `original_sales_invoice_id`. What Moneybird copies
    /// besides is not documented; the double copies the original's reference (the case a lookup
    /// by reference must not mistake for the original) and leaves the date empty, as Moneybird's
    /// draft example does.
    fn duplicate_credit(&mut self, original: &str) -> Result<Value, (u16, Value)> {
        let Some(original) = self.invoices.iter().find(|i| i["id"] == original).cloned() else {
            return Err((404, json!({"error": "record not found"})));
        };
        if original["state"] == "draft" || !original["original_sales_invoice_id"].is_null() {
            return Err((422, json!({"error": "Alleen verstuurde facturen kunnen worden gecrediteerd"})));
        }
        let id = self.id();
        let mut details = vec![];
        for d in original["details"].as_array().unwrap() {
            let mut copy = d.clone();
            copy["id"] = json!(self.id());
            copy["price"] = json!((Cents::ZERO - d["price"].as_str().and_then(Cents::from_decimal_string).unwrap()).to_decimal_string());
            details.push(copy);
        }
        let total = Self::total_of(&details);
        let mut credit = original.clone();
        for (key, value) in [
            ("id", json!(id)),
            ("invoice_id", Value::Null),
            ("state", json!("draft")),
            ("invoice_date", Value::Null),
            ("sent_at", Value::Null),
            ("original_sales_invoice_id", original["id"].clone()),
            ("details", json!(details)),
            ("payments", json!([])),
            ("total_paid", json!("0.0")),
            ("total_price_incl_tax", json!(total.to_decimal_string())),
            ("url", json!(format!("https://moneybird.com/123/sales_invoices/{id}/7f3a9c"))),
        ] {
            credit[key] = value;
        }
        self.totals.insert(id, total);
        self.invoices.push(credit.clone());
        Ok(credit)
    }

    /// `PATCH sales_invoices/{id}`: a draft's reference, date and details (`id` + `_destroy`
    /// removes one, no `id` adds one). A sent invoice is refused.
    fn update_invoice(&mut self, id: &str, fields: &Value) -> Result<Value, (u16, Value)> {
        let Some(mut invoice) = self.invoices.iter().find(|i| i["id"] == id).cloned() else {
            return Err((404, json!({"error": "record not found"})));
        };
        if invoice["state"] != "draft" {
            return Err((422, json!({"error": "Een verstuurde factuur kan niet worden gewijzigd"})));
        }
        for key in ["reference", "invoice_date"] {
            if let Some(value) = fields.get(key) {
                invoice[key] = value.clone();
            }
        }
        let mut details = invoice["details"].as_array().cloned().unwrap();
        for d in fields["details_attributes"].as_array().cloned().unwrap_or_default() {
            match d.get("id") {
                Some(detail) if d["_destroy"] == true => details.retain(|x| &x["id"] != detail),
                Some(_) => return Err((422, json!({"error": "the double changes no details in place"}))),
                None => {
                    let row_order = details.len() + 1;
                    details.push(self.detail(&d, row_order).map_err(|e| (422, e))?.0);
                }
            }
        }
        if details.is_empty() {
            return Err((422, json!({"error": {"details": ["moet minimaal één regel bevatten"]}})));
        }
        let total = Self::total_of(&details);
        invoice["details"] = json!(details);
        invoice["total_price_incl_tax"] = json!(total.to_decimal_string());
        self.totals.insert(id.to_owned(), total);
        *self.invoice_mut(id).unwrap() = invoice.clone();
        Ok(invoice)
    }

    fn list_invoices(&self, filter: &str) -> Vec<Value> {
        let filters: HashMap<&str, &str> = filter.split(',').filter_map(|f| f.split_once(':')).collect();
        let year = chrono::Utc::now().year();
        let default_period = format!("{year}0101..{year}1231");
        let (from, to) = filters.get("period").copied().unwrap_or(default_period.as_str()).split_once("..").expect("a custom period");
        self.invoices
            .iter()
            // an undated draft is outside every period (the reading that would hurt)
            .filter(|i| {
                i["invoice_date"].as_str().map(|d| d.replace('-', "")).is_some_and(|date| date.as_str() >= from && date.as_str() <= to)
            })
            .filter(|i| filters.get("state").is_none_or(|s| *s == "all" || s.split('|').any(|s| i["state"] == s)))
            .filter(|i| filters.get("reference").is_none_or(|r| r.split('|').any(|r| i["reference"] == r)))
            .filter(|i| filters.get("contact_id").is_none_or(|c| i["contact_id"] == *c))
            .cloned()
            .collect()
    }
}

async fn handle(State(books): State<Shared>, method: Method, uri: Uri, headers: HeaderMap, body: String) -> Response {
    let Some(path) = uri.path().strip_prefix(&format!("/api/v2/{ADMINISTRATION}/")).map(str::to_owned) else {
        return answer(404, json!({"error": "administration not found"}));
    };
    let query: HashMap<String, String> = url::form_urlencoded::parse(uri.query().unwrap_or("").as_bytes()).into_owned().collect();
    let body: Value = if body.is_empty() { Value::Null } else { serde_json::from_str(&body).expect("a JSON body") };
    let mut b = books.lock().unwrap();
    b.seen.push(Seen { method: method.to_string(), path: path.clone(), query: query.clone(), body: body.clone() });
    b.agents.extend(headers.get("user-agent").and_then(|v| v.to_str().ok()).map(str::to_owned));
    if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some(&format!("Bearer {TOKEN}")) {
        return answer(401, json!({"error": "Token is invalid", "symbolic": {"token": "invalid"}}));
    }
    if !b.script.is_empty() {
        return match b.script.remove(0) {
            429 => (StatusCode::TOO_MANY_REQUESTS, [("retry-after", "1"), ("ratelimit-limit", "150"), ("ratelimit-remaining", "0")], "")
                .into_response(),
            status => answer(status, json!({"error": "Er is iets misgegaan"})),
        };
    }
    let parts: Vec<&str> = path.trim_end_matches(".json").split('/').collect();
    match (method.as_str(), parts.as_slice()) {
        ("GET", ["contacts", "customer_id", customer_id]) => match b.contacts.iter().find(|c| c["customer_id"] == *customer_id) {
            Some(contact) => answer(200, contact.clone()),
            None => answer(404, json!({"error": "record not found", "symbolic": {}})),
        },
        ("POST", ["contacts"]) => {
            let mut contact = body["contact"].clone();
            contact["id"] = json!(b.id());
            contact["administration_id"] = json!(123);
            b.contacts.push(contact.clone());
            answer(201, contact)
        }
        ("GET", ["tax_rates"]) => {
            // the 21 % sales rate as moneybird-dotnet recorded it (TaxRates/getTaxRates.json,
            // ac08cb7c): `"active": null`, `"show_tax": null`. The double applies an `active:`
            // filter strictly, the way that would hurt; the type and percentage filters are left
            // to the client's own check
            let rates = json!([
                {"id": "446241636268119001", "administration_id": 123, "name": "21% btw inkoop", "percentage": "21.0", "tax_rate_type": "purchase_invoice", "show_tax": true, "active": true, "country": null},
                {"id": "446241636268119002", "administration_id": 123, "name": "9% btw", "percentage": "9.0", "tax_rate_type": "sales_invoice", "show_tax": true, "active": true, "country": null},
                {"id": "446241636268119003", "administration_id": 123, "name": "21% btw (oud)", "percentage": "21.0", "tax_rate_type": "sales_invoice", "show_tax": true, "active": false, "country": null},
                {"id": "446241636268119004", "administration_id": 123, "name": "21% btw", "percentage": "21.0", "tax_rate_type": "sales_invoice", "show_tax": null, "active": null, "country": null},
            ]);
            let filter = query.get("filter").map_or("", String::as_str);
            let active = filter.split(',').find_map(|f| f.strip_prefix("active:")).map(|a| a == "true");
            let rates: Vec<Value> =
                rates.as_array().unwrap().iter().filter(|r| active.is_none_or(|a| r["active"].as_bool() == Some(a))).cloned().collect();
            answer(200, json!(rates))
        }
        ("GET", ["sales_invoices"]) => answer(200, json!(b.list_invoices(query.get("filter").map_or("", String::as_str)))),
        ("POST", ["sales_invoices"]) => match b.make_invoice(&body["sales_invoice"]) {
            Ok(_) if std::mem::take(&mut b.lose_next_create) => answer(500, json!({"error": "Er is iets misgegaan"})),
            Ok(invoice) => answer(201, invoice),
            Err(error) => answer(422, error),
        },
        // the latest of the documents with the reference (vanBrusselTechnologies/moneybirdjs,
        // src/rest/RESTManager.ts `getSalesInvoiceByReference`, 7930726a); no date filter
        ("GET", ["sales_invoices", "find_by_reference", reference]) => {
            match b.invoices.iter().rev().find(|i| i["reference"] == *reference) {
                Some(invoice) => answer(200, invoice.clone()),
                None => answer(404, json!({"error": "record not found"})),
            }
        }
        // picqer/moneybird-php-client SalesInvoice::duplicateToCreditInvoice (04cbd005): PATCH, body
        // `{}`, answers the new sales invoice
        ("PATCH", ["sales_invoices", id, "duplicate_creditinvoice"]) => match b.duplicate_credit(id) {
            Ok(_) if std::mem::take(&mut b.lose_next_duplicate) => answer(500, json!({"error": "Er is iets misgegaan"})),
            Ok(credit) => answer(200, credit),
            Err((status, error)) => answer(status, error),
        },
        ("PATCH", ["sales_invoices", id]) => match b.update_invoice(id, &body["sales_invoice"]) {
            Ok(invoice) => answer(200, invoice),
            Err((status, error)) => answer(status, error),
        },
        ("GET", ["sales_invoices", id]) => match b.invoices.iter().find(|i| i["id"] == *id) {
            Some(invoice) => answer(200, invoice.clone()),
            None => answer(404, json!({"error": "record not found"})),
        },
        ("PATCH", ["sales_invoices", id, "send_invoice"]) => {
            let number = b.next_number + 1;
            let Some(invoice) = b.invoice_mut(id) else { return answer(404, json!({"error": "record not found"})) };
            let fresh = invoice["state"] == "draft";
            if fresh {
                invoice["state"] = json!("open");
                invoice["invoice_id"] = json!(format!("2026-{number:04}"));
                invoice["sent_at"] = json!("2026-11-25");
            }
            let invoice = invoice.clone();
            if fresh {
                b.next_number = number;
            }
            answer(200, invoice)
        }
        ("POST", ["sales_invoices", id, "payments"]) => {
            let payment_id = b.id();
            let total = b.totals.get(*id).copied();
            let Some(invoice) = b.invoice_mut(id) else { return answer(404, json!({"error": "record not found"})) };
            let p = &body["payment"];
            if p["price"].as_str().and_then(Cents::from_decimal_string).is_none() {
                return answer(422, json!({"error": {"price": ["is ongeldig"]}}));
            }
            let payment = json!({
                "id": payment_id, "administration_id": 123, "invoice_type": "SalesInvoice", "invoice_id": invoice["id"],
                "financial_account_id": null, "transaction_identifier": p["transaction_identifier"], "price": p["price"],
                "price_base": p["price"], "payment_date": p["payment_date"], "credit_invoice_id": null,
            });
            invoice["payments"].as_array_mut().unwrap().push(payment.clone());
            let paid: Cents = invoice["payments"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|p| p["price"].as_str().and_then(Cents::from_decimal_string))
                .sum();
            invoice["total_paid"] = json!(paid.to_decimal_string());
            // a credit invoice is settled by a payment of its (negative) total
            if total.is_some_and(|total| if total < Cents::ZERO { paid <= total } else { paid >= total }) {
                invoice["state"] = json!("paid");
            }
            answer(201, payment)
        }
        ("GET", ["sales_invoices", id, "download_pdf"]) => {
            if !b.invoices.iter().any(|i| i["id"] == *id) {
                return answer(404, json!({"error": "record not found"}));
            }
            if b.pdf_as_body {
                return (StatusCode::OK, [("content-type", "application/pdf")], "%PDF-1.7").into_response();
            }
            let location =
                format!("https://moneybird-prod.s3.eu-west-1.amazonaws.com/downloads/{id}.pdf?X-Amz-Expires=60&X-Amz-Signature=abc");
            (StatusCode::FOUND, [("location", location.as_str())], "").into_response()
        }
        _ => answer(404, json!({"error": "no such route"})),
    }
}

fn config(base: &str) -> MoneybirdConfig {
    MoneybirdConfig {
        api_url: url::Url::parse(base).unwrap(),
        administration_id: ADMINISTRATION.into(),
        token: TOKEN.into(),
        tax_rate_id: Some("446241636268119999".into()),
        ledger_account_id: Some("446241636268118888".into()),
        workflow_id: None,
        financial_account_id: None,
    }
}

async fn double_with(change: impl FnOnce(&mut MoneybirdConfig)) -> (Moneybird, Shared) {
    let books: Shared = Arc::new(Mutex::new(Books::default()));
    let app = axum::Router::new().fallback(handle).with_state(books.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/api/v2/", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let mut config = config(&base);
    change(&mut config);
    (Moneybird::new(config).with_backoff(Duration::from_millis(1)), books)
}

async fn double() -> (Moneybird, Shared) {
    double_with(|_| {}).await
}

fn buyer() -> Buyer {
    Buyer {
        customer_id: "0b6f6a3e-7c1d-4f2a-9d33-5a0e1c2b7f10".into(),
        address: Address {
            practice_name: "Huisartsenpraktijk De Linde".into(),
            contact_name: "Anne de Vries".into(),
            street_address: "Hoofdstraat".into(),
            house_number: "12".into(),
            house_number_addition: "a".into(),
            postcode: "1234AB".into(),
            city: "Utrecht".into(),
            phone_number: "0301234567".into(),
            kvk_number: "12345678".into(),
        },
        email: "facturen@delinde.example.nl".into(),
    }
}

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn draft() -> InvoiceDraft {
    InvoiceDraft {
        kind: InvoiceKind::Invoice,
        reference: "SPK-5d1c7e0a-3b8f-4c2e-a1d4-9f6b2e8c0a17".into(),
        date: date(2026, 11, 25),
        buyer: buyer(),
        lines: vec![InvoiceLine {
            description: "Spreekkamer Praktijk, jaarlijks".into(),
            quantity: 3,
            gross_cents: Cents(133_380),
            period: Some((date(2026, 11, 25), date(2027, 11, 24))),
        }],
        paid: Some(Settlement { date: date(2026, 11, 25), gross_cents: Cents(133_380), transaction_id: "tr_7UhSN1zuXS".into() }),
        credits: None,
    }
}

fn seen(books: &Shared, method: &str, path: &str) -> Vec<Seen> {
    books.lock().unwrap().seen.iter().filter(|s| s.method == method && s.path == path).cloned().collect()
}

fn writes(books: &Shared) -> usize {
    books.lock().unwrap().seen.iter().filter(|s| s.method != "GET").count()
}

/// A contact as an earlier attempt left it: its id.
async fn contact(mb: &Moneybird) -> String {
    mb.ensure_contact(&buyer()).await.unwrap()
}

#[tokio::test]
async fn a_contact_found_by_customer_id_is_not_made_again() {
    let (mb, books) = double().await;
    books.lock().unwrap().contacts.push(json!({
        "id": "446241636268115555", "administration_id": 123, "company_name": "Huisartsenpraktijk De Linde",
        "customer_id": "0b6f6a3e-7c1d-4f2a-9d33-5a0e1c2b7f10", "email": "facturen@delinde.example.nl",
    }));
    assert_eq!(mb.ensure_contact(&buyer()).await.unwrap(), "446241636268115555");
    assert_eq!(writes(&books), 0);
    assert_eq!(seen(&books, "GET", "contacts/customer_id/0b6f6a3e-7c1d-4f2a-9d33-5a0e1c2b7f10.json").len(), 1);
}

#[tokio::test]
async fn an_unknown_customer_gets_a_contact_with_the_billing_details() {
    let (mb, books) = double().await;
    let id = mb.ensure_contact(&buyer()).await.unwrap();
    assert!(!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()), "{id}");
    let posts = seen(&books, "POST", "contacts.json");
    assert_eq!(posts.len(), 1);
    assert_eq!(
        posts[0].body,
        json!({"contact": {
            "company_name": "Huisartsenpraktijk De Linde",
            "firstname": "Anne", "lastname": "de Vries", "send_invoices_to_attention": "Anne de Vries",
            "address1": "Hoofdstraat 12 a", "zipcode": "1234 AB", "city": "Utrecht", "country": "NL",
            "phone": "0301234567", "email": "facturen@delinde.example.nl", "send_invoices_to_email": "facturen@delinde.example.nl",
            "chamber_of_commerce": "12345678", "customer_id": "0b6f6a3e-7c1d-4f2a-9d33-5a0e1c2b7f10", "delivery_method": "Email",
        }})
    );
    // a person without a practice: the person is the company, no KvK number sent
    let mut person = buyer();
    person.customer_id = "u2".into();
    person.address.practice_name = " ".into();
    person.address.kvk_number = String::new();
    mb.ensure_contact(&person).await.unwrap();
    let body = &seen(&books, "POST", "contacts.json")[1].body["contact"];
    assert_eq!(body["company_name"], "Anne de Vries");
    assert!(body.get("chamber_of_commerce").is_none() && body.get("firstname").is_none(), "{body}");
    // and a repeat finds it
    assert_eq!(mb.ensure_contact(&buyer()).await.unwrap(), id);
    assert_eq!(seen(&books, "POST", "contacts.json").len(), 2);
}

#[tokio::test]
async fn an_invoice_is_made_sent_and_paid() {
    let (mb, books) = double().await;
    let contact_id = contact(&mb).await;
    let made = mb.ensure_invoice(&contact_id, &draft()).await.unwrap();
    assert_eq!(made.number, "2026-0001");
    assert_eq!(made.url.as_deref(), Some(format!("https://moneybird.com/123/sales_invoices/{}/7f3a9c", made.id).as_str()));

    // looked up by its reference, with no date filter to miss a draft
    assert_eq!(seen(&books, "GET", "sales_invoices/find_by_reference/SPK-5d1c7e0a-3b8f-4c2e-a1d4-9f6b2e8c0a17.json").len(), 1);
    assert!(seen(&books, "GET", "sales_invoices.json").is_empty());

    let creates = seen(&books, "POST", "sales_invoices.json");
    assert_eq!(creates.len(), 1);
    assert_eq!(
        creates[0].body,
        json!({"sales_invoice": {
            "contact_id": contact_id, "reference": "SPK-5d1c7e0a-3b8f-4c2e-a1d4-9f6b2e8c0a17", "invoice_date": "2026-11-25",
            "currency": "EUR", "language": "nl", "prices_are_incl_tax": true,
            "details_attributes": [{
                "description": "Spreekkamer Praktijk, jaarlijks", "amount": "3", "price": "444.60",
                "tax_rate_id": "446241636268119999", "ledger_account_id": "446241636268118888", "period": "20261125..20271124",
            }],
        }})
    );
    assert_eq!(books.lock().unwrap().totals[&made.id], Cents(133_380));

    let sends = seen(&books, "PATCH", &format!("sales_invoices/{}/send_invoice.json", made.id));
    assert_eq!(sends.len(), 1);
    assert_eq!(
        sends[0].body,
        json!({"sales_invoice_sending": {"delivery_method": "Email", "email_address": "facturen@delinde.example.nl"}})
    );

    let payments = seen(&books, "POST", &format!("sales_invoices/{}/payments.json", made.id));
    assert_eq!(payments.len(), 1);
    assert_eq!(
        payments[0].body,
        json!({"payment": {"payment_date": "2026-11-25", "price": "1333.80", "transaction_identifier": "tr_7UhSN1zuXS"}})
    );
    assert_eq!(books.lock().unwrap().invoices[0]["state"], "paid");
}

#[tokio::test]
async fn a_repeat_with_the_same_reference_makes_and_pays_nothing_new() {
    let (mb, books) = double().await;
    let contact_id = contact(&mb).await;
    let first = mb.ensure_invoice(&contact_id, &draft()).await.unwrap();
    let before = writes(&books);
    let again = mb.ensure_invoice(&contact_id, &draft()).await.unwrap();
    assert_eq!(again, first);
    assert_eq!(writes(&books), before);
    let b = books.lock().unwrap();
    assert_eq!(b.invoices.len(), 1);
    assert_eq!(b.invoices[0]["payments"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_draft_left_by_a_crash_is_sent_and_paid_not_made_twice() {
    let (mb, books) = double().await;
    let contact_id = contact(&mb).await;
    let d = draft();
    let left = books
        .lock()
        .unwrap()
        .make_invoice(&json!({
            "contact_id": contact_id, "reference": d.reference, "invoice_date": "2026-11-25", "currency": "EUR", "language": "nl",
            "prices_are_incl_tax": true,
            "details_attributes": [{"description": "Spreekkamer Praktijk, jaarlijks", "amount": "3", "price": "444.60", "tax_rate_id": "446241636268119999"}],
        }))
        .unwrap();
    let made = mb.ensure_invoice(&contact_id, &d).await.unwrap();
    assert_eq!(made.id, left["id"].as_str().unwrap());
    assert_eq!(made.number, "2026-0001");
    assert!(seen(&books, "POST", "sales_invoices.json").is_empty());
    assert_eq!(seen(&books, "PATCH", &format!("sales_invoices/{}/send_invoice.json", made.id)).len(), 1);
    assert_eq!(seen(&books, "POST", &format!("sales_invoices/{}/payments.json", made.id)).len(), 1);
    assert_eq!(books.lock().unwrap().invoices.len(), 1);
}

#[tokio::test]
async fn a_sent_invoice_without_its_payment_only_gets_the_payment() {
    let (mb, books) = double().await;
    let contact_id = contact(&mb).await;
    let mut unpaid = draft();
    unpaid.paid = None;
    let made = mb.ensure_invoice(&contact_id, &unpaid).await.unwrap();
    let before = writes(&books);
    let again = mb.ensure_invoice(&contact_id, &draft()).await.unwrap();
    assert_eq!(again, made);
    assert_eq!(writes(&books), before + 1);
    assert_eq!(seen(&books, "POST", &format!("sales_invoices/{}/payments.json", made.id)).len(), 1);
}

#[tokio::test]
async fn a_create_whose_answer_is_lost_is_found_instead_of_made_again() {
    let (mb, books) = double().await;
    let contact_id = contact(&mb).await;
    books.lock().unwrap().lose_next_create = true;
    let made = mb.ensure_invoice(&contact_id, &draft()).await.unwrap();
    assert_eq!(made.number, "2026-0001");
    assert_eq!(seen(&books, "POST", "sales_invoices.json").len(), 1);
    assert_eq!(seen(&books, "GET", "sales_invoices/find_by_reference/SPK-5d1c7e0a-3b8f-4c2e-a1d4-9f6b2e8c0a17.json").len(), 2);
    assert_eq!(books.lock().unwrap().invoices.len(), 1);
}

#[tokio::test]
async fn a_429_is_waited_out_then_the_request_is_repeated() {
    let (mb, books) = double().await;
    books.lock().unwrap().script = vec![429, 429];
    let started = Instant::now();
    mb.ensure_contact(&buyer()).await.unwrap();
    assert!(started.elapsed() >= Duration::from_secs(2), "{:?}", started.elapsed());
    assert_eq!(seen(&books, "GET", "contacts/customer_id/0b6f6a3e-7c1d-4f2a-9d33-5a0e1c2b7f10.json").len(), 3);
    assert_eq!(seen(&books, "POST", "contacts.json").len(), 1);
}

#[tokio::test]
async fn a_persistent_500_is_unavailable_and_retryable() {
    let (mb, books) = double().await;
    books.lock().unwrap().script = vec![500; 10];
    let err = mb.ensure_contact(&buyer()).await.unwrap_err();
    assert!(err.is_retryable(), "{err:?}");
    assert!(matches!(err, BookkeepingError::Unavailable(_)));
    assert_eq!(books.lock().unwrap().seen.len(), 4);
    assert_eq!(writes(&books), 0);
}

#[tokio::test]
async fn a_422_is_a_refusal_with_moneybirds_error_and_not_repeated() {
    let (mb, books) = double().await;
    match mb.ensure_invoice("446241636268110404", &draft()).await.unwrap_err() {
        BookkeepingError::Refused { status, message } => {
            assert_eq!(status, 422);
            assert_eq!(message, "contact_id is ongeldig");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(seen(&books, "POST", "sales_invoices.json").len(), 1);
    assert!(!BookkeepingError::Refused { status: 422, message: String::new() }.is_retryable());
}

#[tokio::test]
async fn a_wrong_token_is_retried_until_it_is_fixed_not_refused_for_good() {
    let (mb, books) = double_with(|c| c.token = "wrong".into()).await;
    let err = mb.ensure_contact(&buyer()).await.unwrap_err();
    assert!(err.is_retryable(), "{err:?}");
    assert!(err.to_string().contains("Moneybird weigert het API-token (401)"), "{err}");
    assert_eq!(writes(&books), 0);
}

#[tokio::test]
async fn both_clients_say_who_they_are() {
    let (mb, books) = double().await;
    mb.ensure_contact(&buyer()).await.unwrap();
    let agents = books.lock().unwrap().agents.clone();
    assert!(!agents.is_empty() && agents.iter().all(|a| a.starts_with("Spreekkamer/")), "{agents:?}");
}

#[tokio::test]
async fn payments_are_booked_on_the_configured_financial_account() {
    let (mb, books) = double_with(|c| c.financial_account_id = Some("446241636268115555".into())).await;
    let contact_id = contact(&mb).await;
    let made = mb.ensure_invoice(&contact_id, &draft()).await.unwrap();
    let payments = seen(&books, "POST", &format!("sales_invoices/{}/payments.json", made.id));
    assert_eq!(payments.len(), 1);
    assert_eq!(payments[0].body["payment"]["financial_account_id"], "446241636268115555");
    assert_eq!(payments[0].body["payment"]["manual_payment_action"], "bank_transfer");
}

#[tokio::test]
async fn the_tax_rate_is_looked_up_once_when_not_configured() {
    let (mb, books) = double_with(|c| {
        c.tax_rate_id = None;
        c.ledger_account_id = None;
        c.workflow_id = Some("446241636268117777".into());
    })
    .await;
    let contact_id = contact(&mb).await;
    mb.ensure_invoice(&contact_id, &draft()).await.unwrap();
    let mut second = draft();
    second.reference = "SPK-1e0c4b2a-8d7f-4a61-b3c5-2f9e8d7c6b5a".into();
    mb.ensure_invoice(&contact_id, &second).await.unwrap();
    let lookups = seen(&books, "GET", "tax_rates.json");
    assert_eq!(lookups.len(), 1);
    // no `active:true`: Moneybird's own 21 % rate has `"active": null` and a strict filter drops it
    assert_eq!(lookups[0].query["filter"], "tax_rate_type:sales_invoice,percentage:21");
    for create in seen(&books, "POST", "sales_invoices.json") {
        let invoice = &create.body["sales_invoice"];
        assert_eq!(invoice["workflow_id"], "446241636268117777");
        assert_eq!(invoice["details_attributes"][0]["tax_rate_id"], "446241636268119004");
        assert!(invoice["details_attributes"][0].get("ledger_account_id").is_none());
    }
}

#[tokio::test]
async fn the_download_link_is_the_redirects_location() {
    let (mb, books) = double().await;
    let contact_id = contact(&mb).await;
    let made = mb.ensure_invoice(&contact_id, &draft()).await.unwrap();
    let link = mb.download_link(&made.id).await.unwrap();
    assert_eq!(
        link,
        format!("https://moneybird-prod.s3.eu-west-1.amazonaws.com/downloads/{}.pdf?X-Amz-Expires=60&X-Amz-Signature=abc", made.id)
    );
    assert_eq!(mb.download_link("../contacts").await.unwrap_err(), BookkeepingError::NotFound);
    assert_eq!(mb.download_link("446241636268110404").await.unwrap_err(), BookkeepingError::NotFound);
    // a PDF answered directly: the invoice's own page instead
    books.lock().unwrap().pdf_as_body = true;
    assert_eq!(mb.download_link(&made.id).await.unwrap(), made.url.unwrap());
}

/// A credit of `cents` of `original` (a refund paid out through the payment's transaction).
fn credit_of(original: &ProviderInvoice, kind: InvoiceKind, cents: i64, suffix: &str) -> InvoiceDraft {
    InvoiceDraft {
        kind,
        reference: format!("{}-{suffix}", draft().reference),
        date: date(2026, 12, 2),
        buyer: buyer(),
        lines: vec![InvoiceLine { description: "Terugbetaling 1 gebruiker".into(), quantity: 1, gross_cents: Cents(cents), period: None }],
        paid: Some(Settlement { date: date(2026, 12, 2), gross_cents: Cents(cents), transaction_id: "tr_7UhSN1zuXS".into() }),
        credits: Some(Credits { number: original.number.clone(), provider_invoice_id: original.id.clone(), date: date(2026, 11, 25) }),
    }
}

#[tokio::test]
async fn a_credit_invoice_is_duplicated_from_the_original_linked_and_settled_by_the_refund() {
    let (mb, books) = double().await;
    let contact_id = contact(&mb).await;
    let original = mb.ensure_invoice(&contact_id, &draft()).await.unwrap();
    let credit = credit_of(&original, InvoiceKind::Credit, -44_460, "C44460");
    let made = mb.ensure_invoice(&contact_id, &credit).await.unwrap();
    assert_eq!(made.number, "2026-0002");

    // Moneybird's own flow: duplicated from the original, not a free-standing invoice
    assert_eq!(seen(&books, "POST", "sales_invoices.json").len(), 1, "only the original is made with POST");
    assert_eq!(seen(&books, "PATCH", &format!("sales_invoices/{}/duplicate_creditinvoice.json", original.id)).len(), 1);
    let update = &seen(&books, "PATCH", &format!("sales_invoices/{}.json", made.id))[0].body["sales_invoice"];
    assert_eq!(update["reference"], credit.reference);
    assert_eq!(update["invoice_date"], "2026-12-02");
    let details = update["details_attributes"].as_array().unwrap();
    assert_eq!(details.len(), 2, "the copied line goes, the credited amount comes: {details:?}");
    assert_eq!(details[0]["_destroy"], true);
    assert_eq!(
        details[1],
        json!({
            "description": "Creditering van factuur 2026-0001: Terugbetaling 1 gebruiker", "amount": "1", "price": "-444.60",
            "tax_rate_id": "446241636268119999", "ledger_account_id": "446241636268118888",
        })
    );
    // settled: the refund registered as its (negative) payment on the provider's transaction
    let payments = seen(&books, "POST", &format!("sales_invoices/{}/payments.json", made.id));
    assert_eq!(payments.len(), 1);
    assert_eq!(
        payments[0].body,
        json!({"payment": {"payment_date": "2026-12-02", "price": "-444.60", "transaction_identifier": "tr_7UhSN1zuXS"}})
    );
    {
        let b = books.lock().unwrap();
        let stored = b.invoices.iter().find(|i| i["id"] == made.id.as_str()).unwrap();
        assert_eq!(stored["original_sales_invoice_id"], original.id.as_str());
        assert_eq!(stored["state"], "paid");
        assert_eq!(b.totals[&made.id], Cents(-44_460));
        assert_eq!(b.invoices.len(), 2);
    }

    // a repeat finds it by its reference and writes nothing
    let before = writes(&books);
    assert_eq!(mb.ensure_invoice(&contact_id, &credit).await.unwrap(), made);
    assert_eq!(writes(&books), before);
}

#[tokio::test]
async fn a_lost_duplicate_answer_is_not_mistaken_for_the_original_nor_credited_twice() {
    let (mb, books) = double().await;
    let contact_id = contact(&mb).await;
    let original = mb.ensure_invoice(&contact_id, &draft()).await.unwrap();
    books.lock().unwrap().lose_next_duplicate = true;
    let credit = credit_of(&original, InvoiceKind::Credit, -133_380, "C133380");
    let made = mb.ensure_invoice(&contact_id, &credit).await.unwrap();
    assert_eq!(made.number, "2026-0002");
    {
        let b = books.lock().unwrap();
        // the draft whose answer was lost stays a draft without a number: nothing is booked twice
        let drafts: Vec<_> = b.invoices.iter().filter(|i| i["state"] == "draft").collect();
        assert_eq!(drafts.len(), 1);
        assert!(drafts[0]["invoice_id"].is_null());
        assert_eq!(b.invoices.iter().filter(|i| !i["invoice_id"].is_null()).count(), 2);
    }
    // that draft carries the original's reference; looking the original up again finds the
    // original, not the draft
    let before = writes(&books);
    assert_eq!(mb.ensure_invoice(&contact_id, &draft()).await.unwrap(), original);
    assert_eq!(writes(&books), before);
}

#[tokio::test]
async fn an_undated_draft_left_by_a_crash_is_found_by_its_reference() {
    let (mb, books) = double().await;
    let contact_id = contact(&mb).await;
    let d = draft();
    books
        .lock()
        .unwrap()
        .make_invoice(&json!({
            "contact_id": contact_id, "reference": d.reference, "invoice_date": null, "currency": "EUR", "language": "nl",
            "prices_are_incl_tax": true,
            "details_attributes": [{"description": "Spreekkamer Praktijk, jaarlijks", "amount": "3", "price": "444.60", "tax_rate_id": "446241636268119999"}],
        }))
        .unwrap();
    // the period filter of the list would miss it
    assert!(books.lock().unwrap().list_invoices("state:all,period:20250101..20271231").is_empty());
    mb.ensure_invoice(&contact_id, &d).await.unwrap();
    assert!(seen(&books, "POST", "sales_invoices.json").is_empty());
    assert_eq!(books.lock().unwrap().invoices.len(), 1);
}

#[tokio::test]
async fn a_reversal_is_an_invoice_naming_the_credit_it_undoes_paid_with_the_money_kept() {
    let (mb, books) = double().await;
    let contact_id = contact(&mb).await;
    let original = mb.ensure_invoice(&contact_id, &draft()).await.unwrap();
    let credit = mb.ensure_invoice(&contact_id, &credit_of(&original, InvoiceKind::Credit, -44_460, "C44460")).await.unwrap();
    let mut reversal = credit_of(&credit, InvoiceKind::Reversal, 44_460, "R0-1");
    reversal.lines[0].description = "Terugbetaling ingetrokken: 1 gebruiker".into();
    let made = mb.ensure_invoice(&contact_id, &reversal).await.unwrap();
    assert_eq!(made.number, "2026-0003");
    let creates = seen(&books, "POST", "sales_invoices.json");
    assert_eq!(creates.len(), 2);
    assert_eq!(
        creates[1].body["sales_invoice"]["details_attributes"][0]["description"],
        "Terugdraaiing van creditfactuur 2026-0002: Terugbetaling ingetrokken: 1 gebruiker"
    );
    assert_eq!(creates[1].body["sales_invoice"]["details_attributes"][0]["price"], "444.60");
    let payments = seen(&books, "POST", &format!("sales_invoices/{}/payments.json", made.id));
    assert_eq!(payments[0].body["payment"]["price"], "444.60");
    assert_eq!(books.lock().unwrap().invoices.iter().filter(|i| i["state"] == "paid").count(), 3);
}

#[tokio::test]
async fn a_line_that_does_not_divide_by_its_users_is_one_unit_of_the_whole() {
    let (mb, books) = double().await;
    let contact_id = contact(&mb).await;
    let mut d = draft();
    d.lines = vec![
        InvoiceLine { description: "Spreekkamer Praktijk, maandelijks".into(), quantity: 3, gross_cents: Cents(10_000), period: None },
        InvoiceLine { description: "Korting".into(), quantity: 1, gross_cents: Cents(-1_210), period: None },
    ];
    d.paid.as_mut().unwrap().gross_cents = Cents(8_790);
    let made = mb.ensure_invoice(&contact_id, &d).await.unwrap();
    let details = &seen(&books, "POST", "sales_invoices.json")[0].body["sales_invoice"]["details_attributes"];
    assert_eq!(details[0]["amount"], "1");
    assert_eq!(details[0]["price"], "100.00");
    assert_eq!(details[0]["description"], "Spreekkamer Praktijk, maandelijks (3 gebruikers)");
    assert_eq!(details[1]["price"], "-12.10");
    assert_eq!(books.lock().unwrap().totals[&made.id], d.gross_cents());
    assert_eq!(books.lock().unwrap().invoices[0]["state"], "paid");
}

fn lookup(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let vars: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    move |name| vars.get(name).cloned()
}

#[test]
fn without_a_token_the_local_bookkeeping_is_used() {
    assert!(MoneybirdConfig::from_lookup(lookup(&[])).unwrap().is_none());
    assert!(
        MoneybirdConfig::from_lookup(lookup(&[("APP_MONEYBIRD_API_TOKEN", ""), ("APP_MONEYBIRD_ADMINISTRATION_ID", "123")]))
            .unwrap()
            .is_none()
    );
}

#[test]
fn a_token_needs_an_administration() {
    let (name, message) = MoneybirdConfig::from_lookup(lookup(&[("APP_MONEYBIRD_API_TOKEN", TOKEN)])).unwrap_err();
    assert_eq!(name, "APP_MONEYBIRD_ADMINISTRATION_ID");
    assert!(message.contains("APP_MONEYBIRD_API_TOKEN"), "{message}");
    let (name, _) =
        MoneybirdConfig::from_lookup(lookup(&[("APP_MONEYBIRD_API_TOKEN", TOKEN), ("APP_MONEYBIRD_ADMINISTRATION_ID", " ")])).unwrap_err();
    assert_eq!(name, "APP_MONEYBIRD_ADMINISTRATION_ID");
}

#[test]
fn the_configuration_is_read_with_defaults() {
    let c = MoneybirdConfig::from_lookup(lookup(&[("APP_MONEYBIRD_API_TOKEN", TOKEN), ("APP_MONEYBIRD_ADMINISTRATION_ID", "123")]))
        .unwrap()
        .unwrap();
    assert_eq!(c.api_url.as_str(), DEFAULT_API_URL);
    assert_eq!((c.administration_id.as_str(), c.token.as_str()), ("123", TOKEN));
    assert_eq!((c.tax_rate_id, c.ledger_account_id, c.workflow_id), (None, None, None));

    let c = MoneybirdConfig::from_lookup(lookup(&[
        ("APP_MONEYBIRD_API_TOKEN", TOKEN),
        ("APP_MONEYBIRD_ADMINISTRATION_ID", "123"),
        ("APP_MONEYBIRD_API_URL", "http://127.0.0.1:9000/api/v2"),
        ("APP_MONEYBIRD_TAX_RATE_ID", "1"),
        ("APP_MONEYBIRD_LEDGER_ACCOUNT_ID", "2"),
        ("APP_MONEYBIRD_WORKFLOW_ID", ""),
    ]))
    .unwrap()
    .unwrap();
    assert_eq!(c.api_url.as_str(), "http://127.0.0.1:9000/api/v2/");
    assert_eq!((c.tax_rate_id.as_deref(), c.ledger_account_id.as_deref(), c.workflow_id), (Some("1"), Some("2"), None));

    let (name, _) = MoneybirdConfig::from_lookup(lookup(&[
        ("APP_MONEYBIRD_API_TOKEN", TOKEN),
        ("APP_MONEYBIRD_ADMINISTRATION_ID", "123"),
        ("APP_MONEYBIRD_API_URL", "not a url"),
    ]))
    .unwrap_err();
    assert_eq!(name, "APP_MONEYBIRD_API_URL");
}

#[test]
fn debug_never_shows_the_token() {
    let c = config("https://moneybird.com/api/v2/");
    let shown = format!("{c:?}");
    assert!(!shown.contains(TOKEN), "{shown}");
    assert!(shown.contains("administration_id: \"123\""), "{shown}");
}
