//! The small Dutch sign-in page of the development issuer.

use super::SEED_USERS;

/// An authorization request's parameters, which the sign-in page carries in its form.
#[derive(Debug, Default, serde::Deserialize)]
pub struct AuthorizeParams {
    pub client_id: Option<String>,
    pub redirect_uri: Option<String>,
    pub response_type: Option<String>,
    pub scope: Option<String>,
    pub state: Option<String>,
    pub nonce: Option<String>,
    pub code_challenge: Option<String>,
    pub code_challenge_method: Option<String>,
    /// A seeded user's button, or a hint from the client.
    pub login_hint: Option<String>,
    /// A typed address.
    pub email: Option<String>,
}

pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;background:#f1f5f9;color:#0f172a;margin:0}\
main{max-width:28rem;margin:4rem auto;background:#fff;border-radius:.75rem;box-shadow:0 1px 3px rgba(0,0,0,.12);padding:2rem}\
h1{font-size:1.4rem;margin:0 0 .25rem}p{color:#475569;margin:.25rem 0 1.25rem}\
.users{display:grid;gap:.5rem;margin-bottom:1.5rem}\
.users button{display:block;width:100%;text-align:left;border:1px solid #cbd5e1;background:#fff;border-radius:.5rem;padding:.6rem .8rem;cursor:pointer}\
.users button:hover{border-color:#0d9488;background:#f0fdfa}.users small{display:block;color:#64748b}\
label{display:block;font-weight:600;margin-bottom:.35rem}input{width:100%;box-sizing:border-box;padding:.55rem;border:1px solid #cbd5e1;border-radius:.5rem}\
.primary{margin-top:.75rem;width:100%;padding:.6rem;border:0;border-radius:.5rem;background:#0d9488;color:#fff;font-weight:600;cursor:pointer}\
.error{background:#fef2f2;color:#991b1b;padding:.6rem;border-radius:.5rem}.note{font-size:.8rem;color:#94a3b8;margin-top:1.5rem}";

/// The CSP source that allows the pages' one inline stylesheet and nothing else inline.
pub fn style_source() -> String {
    use base64::Engine;
    use sha2::Digest;
    format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(STYLE.as_bytes())))
}

fn hidden_fields(params: &AuthorizeParams) -> String {
    let fields = [
        ("client_id", &params.client_id),
        ("redirect_uri", &params.redirect_uri),
        ("response_type", &params.response_type),
        ("scope", &params.scope),
        ("state", &params.state),
        ("nonce", &params.nonce),
        ("code_challenge", &params.code_challenge),
        ("code_challenge_method", &params.code_challenge_method),
    ];
    fields
        .iter()
        .filter_map(|(name, value)| value.as_ref().map(|v| format!("<input type=\"hidden\" name=\"{name}\" value=\"{}\">", escape(v))))
        .collect()
}

/// The page that lists the seeded users and takes a typed e-mail address.
pub fn sign_in(params: &AuthorizeParams, error: Option<&str>, typed: &str) -> String {
    let hidden = hidden_fields(params);
    let users: String = SEED_USERS
        .iter()
        .map(|u| {
            format!(
                "<button type=\"submit\" name=\"login_hint\" value=\"{email}\"><strong>{email}</strong><small>{desc}</small></button>",
                email = escape(u.email),
                desc = escape(u.description)
            )
        })
        .collect();
    let error = error.map(|e| format!("<p class=\"error\" role=\"alert\">{}</p>", escape(e))).unwrap_or_default();
    format!(
        "<!doctype html><html lang=\"nl\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>Inloggen – Spreekkamer</title><link rel=\"icon\" href=\"data:,\">\
<style>{STYLE}</style></head><body><main>\
<h1>Inloggen bij Spreekkamer</h1><p>Kies een testgebruiker of log in met een e-mailadres.</p>{error}\
<form method=\"post\" class=\"users\" aria-label=\"Testgebruikers\">{hidden}{users}</form>\
<form method=\"post\">{hidden}<label for=\"email\">E-mailadres</label>\
<input id=\"email\" name=\"email\" type=\"email\" autocomplete=\"email\" required value=\"{typed}\">\
<button type=\"submit\" class=\"primary\">Inloggen</button></form>\
<p class=\"note\">Ontwikkelomgeving: er wordt geen wachtwoord gevraagd. Een onbekend e-mailadres logt in als nieuwe gebruiker.</p>\
</main></body></html>",
        typed = escape(typed)
    )
}

/// A page for requests that cannot be sent back to the client (unknown client or address).
pub fn problem(title: &str, detail: &str) -> String {
    format!(
        "<!doctype html><html lang=\"nl\"><head><meta charset=\"utf-8\"><title>{t} – Spreekkamer</title>\
<style>{STYLE}</style></head><body><main><h1>{t}</h1><p>{d}</p></main></body></html>",
        t = escape(title),
        d = escape(detail)
    )
}
