//! The Dutch e-mail texts. Each letter renders a subject and a plain-text body; [`html`] gives the
//! same body as HTML, so a message carries both.

use serde::{Deserialize, Serialize};

/// Which message to send (stored in the e-mail job's payload).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Template {
    /// After the first sign-in: the account exists.
    Welcome,
    /// A seat on a subscription was given to an address without an account.
    SeatInvitation,
    /// To staff: active paid subscriptions without a payment for 5 days, found by one run.
    UnpaidSubscriptions,
    /// The automatic payment of a new period did not succeed.
    RenewalFailed,
    /// Days later, that payment is still not made.
    RenewalReminder,
    /// An address without an account was added to a sub-organisation: an invitation to sign in.
    OrganisationInvitation,
    /// An account was added to a sub-organisation: it has access through the organisation now.
    OrganisationAccess,
    /// A user of a sub-organisation was made its admin, or is no longer.
    OrganisationAdmin,
}

/// A subscription the unpaid check found, as the staff e-mail lists it.
pub struct UnpaidLine<'a> {
    pub description: &'a str,
    pub email: &'a str,
    /// When it was made, as a Dutch date.
    pub since: String,
}

/// A template with what it mentions.
pub enum Letter<'a> {
    Welcome {
        name: &'a str,
        email: &'a str,
    },
    SeatInvitation {
        email: &'a str,
        owner_name: &'a str,
        owner_email: &'a str,
        description: &'a str,
    },
    UnpaidSubscriptions {
        lines: Vec<UnpaidLine<'a>>,
    },
    /// `amount` as "€ 49,00", `valid_until` as a Dutch date.
    RenewalFailed {
        /// The reminder days later, not the first notice.
        reminder: bool,
        name: &'a str,
        description: &'a str,
        amount: String,
        valid_until: Option<String>,
    },
    OrganisationInvitation {
        email: &'a str,
        at: Membership<'a>,
    },
    OrganisationAccess {
        name: &'a str,
        email: &'a str,
        at: Membership<'a>,
    },
    OrganisationAdmin {
        name: &'a str,
        admin: bool,
        at: Membership<'a>,
    },
}

/// Where an organisation letter's reader belongs.
pub struct Membership<'a> {
    /// The main organisation.
    pub organisation: &'a str,
    /// The sub-organisation (a practice).
    pub level: &'a str,
}

pub struct Rendered {
    pub subject: String,
    pub body: String,
}

const SIGNATURE: &str = "Met vriendelijke groet,\nHet team van Spreekkamer\n";

pub fn render(letter: &Letter<'_>, public_url: &str) -> Rendered {
    match letter {
        Letter::Welcome { name, email } => Rendered {
            subject: "Welkom bij Spreekkamer".to_owned(),
            body: format!(
                "Beste {name},\n\
                 \n\
                 Welkom bij Spreekkamer. Je account is aangemaakt voor {email}.\n\
                 \n\
                 Neem een consult op, zie het gesprek live uitgeschreven en ontvang binnen enkele \
                 seconden een SOEP-verslag dat je zelf nakijkt en aanpast voordat het in het dossier komt.\n\
                 \n\
                 Aan de slag: {public_url}/\n\
                 \n\
                 Vragen of opmerkingen? Gebruik de feedbackknop in Spreekkamer; we lezen alles.\n\
                 \n\
                 {SIGNATURE}"
            ),
        },
        Letter::SeatInvitation { email, owner_name, owner_email, description } => Rendered {
            subject: format!("{owner_name} nodigt je uit voor Spreekkamer"),
            body: format!(
                "Beste collega,\n\
                 \n\
                 {owner_name} ({owner_email}) heeft je toegevoegd aan het abonnement \"{description}\" \
                 van Spreekkamer. Je kunt Spreekkamer daarmee gebruiken zonder zelf een abonnement af te sluiten.\n\
                 \n\
                 Log in met dit e-mailadres ({email}) om je account aan te maken: {public_url}/\n\
                 \n\
                 Spreekkamer schrijft je consult live uit en maakt er binnen enkele seconden een \
                 SOEP-verslag van, dat je zelf nakijkt en aanpast voordat het in het dossier komt.\n\
                 \n\
                 Verwacht je deze uitnodiging niet? Dan kun je dit bericht negeren.\n\
                 \n\
                 {SIGNATURE}"
            ),
        },
        Letter::RenewalFailed { reminder, name, description, amount, valid_until } => {
            let opening = if *reminder { "Een paar dagen geleden schreven we het al: " } else { "" };
            let until = match valid_until {
                Some(day) => format!("Je abonnement blijft bruikbaar tot en met {day}."),
                None => "Je abonnement blijft bruikbaar tot het einde van de betaalde periode.".to_owned(),
            };
            Rendered {
                subject: if *reminder {
                    "Herinnering: je betaling voor Spreekkamer is nog niet gelukt".to_owned()
                } else {
                    "Je betaling voor Spreekkamer is niet gelukt".to_owned()
                },
                body: format!(
                    "Beste {name},\n\
                     \n\
                     {opening}De automatische betaling van {amount} voor je abonnement \"{description}\" is niet gelukt. \
                     {until}\n\
                     \n\
                     Wil je Spreekkamer daarna blijven gebruiken? Betaal dan via Abonnementen: {public_url}/subscription\n\
                     \n\
                     Is je rekening of machtiging veranderd? Dan kies je daar opnieuw je abonnement en betaalwijze.\n\
                     \n\
                     {SIGNATURE}"
                ),
            }
        }
        Letter::OrganisationInvitation { email, at } => Rendered {
            subject: format!("Uitnodiging voor Spreekkamer via {}", at.organisation),
            body: format!(
                "Beste collega,\n\
                 \n\
                 {organisation} heeft je toegang gegeven tot Spreekkamer, via {level}. Je kunt \
                 Spreekkamer daarmee gebruiken zonder zelf een abonnement af te sluiten.\n\
                 \n\
                 Log in met dit e-mailadres ({email}) om je account aan te maken: {public_url}/\n\
                 Zodra je voor het eerst inlogt met {email}, is je toegang via {organisation} actief.\n\
                 \n\
                 Spreekkamer schrijft je consult live uit en maakt er binnen enkele seconden een \
                 SOEP-verslag van, dat je zelf nakijkt en aanpast voordat het in het dossier komt.\n\
                 \n\
                 Verwacht je deze uitnodiging niet? Dan kun je dit bericht negeren.\n\
                 \n\
                 {SIGNATURE}",
                organisation = at.organisation,
                level = at.level,
            ),
        },
        Letter::OrganisationAccess { name, email, at } => Rendered {
            subject: format!("Je hebt toegang tot Spreekkamer via {}", at.organisation),
            body: format!(
                "Beste {name},\n\
                 \n\
                 {organisation} heeft je account ({email}) toegevoegd aan {level}. Je gebruikt \
                 Spreekkamer vanaf nu via {organisation}; een eigen abonnement is daarvoor niet nodig.\n\
                 \n\
                 Aan de slag: {public_url}/\n\
                 \n\
                 {SIGNATURE}",
                organisation = at.organisation,
                level = at.level,
            ),
        },
        Letter::OrganisationAdmin { name, admin, at } => {
            let (subject, text) = if *admin {
                (
                    format!("Je bent beheerder van {} in Spreekkamer", at.level),
                    format!(
                        "Je bent nu beheerder van {level} ({organisation}) in Spreekkamer. Als beheerder kun je \
                         de templates die met {level} of met {organisation} gedeeld zijn wijzigen en verwijderen, \
                         ook als een collega ze heeft gemaakt. Je collega's zien je wijzigingen meteen.",
                        level = at.level,
                        organisation = at.organisation,
                    ),
                )
            } else {
                (
                    format!("Je bent geen beheerder meer van {} in Spreekkamer", at.level),
                    format!(
                        "Je bent geen beheerder meer van {level} ({organisation}) in Spreekkamer. Je gebruikt \
                         Spreekkamer zoals voorheen; gedeelde templates van anderen kun je niet meer wijzigen of \
                         verwijderen.",
                        level = at.level,
                        organisation = at.organisation,
                    ),
                )
            };
            Rendered {
                subject,
                body: format!(
                    "Beste {name},\n\
                     \n\
                     {text}\n\
                     \n\
                     Vragen? Neem contact op met de beheerder van je organisatie of gebruik de feedbackknop in Spreekkamer.\n\
                     \n\
                     {SIGNATURE}"
                ),
            }
        }
        Letter::UnpaidSubscriptions { lines } => {
            let count = lines.len();
            let list: String = lines.iter().map(|l| format!("- {} ({}), actief sinds {}\n", l.description, l.email, l.since)).collect();
            let (noun, adjective, verb) = if count == 1 { ("abonnement", "actief", "is") } else { ("abonnementen", "actieve", "zijn") };
            Rendered {
                subject: format!("{count} {noun} zonder betaling"),
                body: format!(
                    "Beste collega,\n\
                     \n\
                     De dagelijkse controle vond {count} {adjective} {noun} waarvoor 5 dagen of langer geen \
                     betaling is ontvangen. Deze {verb} nieuw sinds de vorige melding:\n\
                     \n\
                     {list}\
                     \n\
                     Bekijk ze in het CMS onder Gebruikers abonnementen: {public_url}/cms\n\
                     \n\
                     {SIGNATURE}"
                ),
            }
        }
    }
}

/// The body as HTML: the same text, escaped, in paragraphs (a blank line), with line breaks kept
/// and every address that starts with `http://` or `https://` a link.
pub fn html(rendered: &Rendered) -> String {
    let escape = |t: &str| t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
    let linked = |line: &str| {
        line.split(' ')
            .map(|word| {
                let trimmed = word.trim_end_matches(['.', ',', ')', ':']);
                if trimmed.starts_with("https://") || trimmed.starts_with("http://") {
                    let rest = &word[trimmed.len()..];
                    format!("<a href=\"{0}\">{0}</a>{1}", escape(trimmed), escape(rest))
                } else {
                    escape(word)
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let paragraphs: String = rendered
        .body
        .trim_end()
        .split("\n\n")
        .map(|p| format!("<p>{}</p>\n", p.lines().map(linked).collect::<Vec<_>>().join("<br>\n")))
        .collect();
    format!(
        "<!DOCTYPE html>\n<html lang=\"nl\"><head><meta charset=\"utf-8\"><title>{}</title></head>\n\
         <body style=\"font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #0f172a; max-width: 600px\">\n{}</body></html>\n",
        escape(&rendered.subject),
        paragraphs
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_welcome_names_the_person_their_address_and_the_link() {
        let r = render(&Letter::Welcome { name: "Anna", email: "anna@example.nl" }, "https://app.example.nl");
        assert_eq!(r.subject, "Welkom bij Spreekkamer");
        assert!(r.body.starts_with("Beste Anna,\n"));
        assert!(r.body.contains("aangemaakt voor anna@example.nl."));
        assert!(r.body.contains("Aan de slag: https://app.example.nl/"));
    }

    #[test]
    fn the_invitation_names_who_invites_to_what_and_where_to_sign_in() {
        let letter = Letter::SeatInvitation {
            email: "collega@praktijk.nl",
            owner_name: "Anne de Vries",
            owner_email: "huisarts@praktijk.nl",
            description: "Spreekkamer Praktijk (3 gebruikers, jaarlijks)",
        };
        let r = render(&letter, "https://app.example.nl");
        assert_eq!(r.subject, "Anne de Vries nodigt je uit voor Spreekkamer");
        assert!(r.body.contains(
            "Anne de Vries (huisarts@praktijk.nl) heeft je toegevoegd aan het abonnement \"Spreekkamer Praktijk (3 gebruikers, jaarlijks)\""
        ));
        assert!(r.body.contains("Log in met dit e-mailadres (collega@praktijk.nl) om je account aan te maken: https://app.example.nl/"));
    }

    #[test]
    fn the_unpaid_list_counts_in_dutch_and_lists_each_subscription() {
        let line = |d| UnpaidLine { description: d, email: "a@praktijk.nl", since: "17 november 2026".into() };
        let one = render(&Letter::UnpaidSubscriptions { lines: vec![line("Spreekkamer Individueel (maandelijks)")] }, "https://x.nl");
        assert_eq!(one.subject, "1 abonnement zonder betaling");
        assert!(one.body.contains("vond 1 actief abonnement waarvoor 5 dagen"));
        assert!(one.body.contains("- Spreekkamer Individueel (maandelijks) (a@praktijk.nl), actief sinds 17 november 2026\n"));
        let two = render(&Letter::UnpaidSubscriptions { lines: vec![line("A"), line("B")] }, "https://x.nl");
        assert_eq!(two.subject, "2 abonnementen zonder betaling");
        assert!(two.body.contains("vond 2 actieve abonnementen waarvoor"));
        assert!(two.body.contains("Deze zijn nieuw"));
        assert!(two.body.contains("https://x.nl/cms"));
    }

    #[test]
    fn the_failed_renewal_says_what_failed_until_when_it_works_and_where_to_pay() {
        let letter = Letter::RenewalFailed {
            reminder: false,
            name: "Anna",
            description: "Spreekkamer Individueel (maandelijks)",
            amount: "€ 49,00".into(),
            valid_until: Some("22 december 2026".into()),
        };
        let r = render(&letter, "https://app.example.nl");
        assert_eq!(r.subject, "Je betaling voor Spreekkamer is niet gelukt");
        assert!(
            r.body.contains(
                "De automatische betaling van € 49,00 voor je abonnement \"Spreekkamer Individueel (maandelijks)\" is niet gelukt."
            )
        );
        assert!(r.body.contains("Je abonnement blijft bruikbaar tot en met 22 december 2026."));
        assert!(r.body.contains("Betaal dan via Abonnementen: https://app.example.nl/subscription"));
    }

    #[test]
    fn the_reminder_says_it_is_a_reminder() {
        let letter = Letter::RenewalFailed {
            reminder: true,
            name: "Anna",
            description: "Spreekkamer Individueel (maandelijks)",
            amount: "€ 49,00".into(),
            valid_until: Some("22 december 2026".into()),
        };
        let r = render(&letter, "https://app.example.nl");
        assert_eq!(r.subject, "Herinnering: je betaling voor Spreekkamer is nog niet gelukt");
        assert!(r.body.contains("Een paar dagen geleden schreven we het al: De automatische betaling van € 49,00"));
    }

    #[test]
    fn organisation_letters_name_the_organisation_and_what_it_means() {
        let at = || Membership { organisation: "Zorggroep Zuid", level: "Praktijk De Linde" };
        let invite = render(&Letter::OrganisationInvitation { email: "anne@praktijk.nl", at: at() }, "https://app.example.nl");
        assert_eq!(invite.subject, "Uitnodiging voor Spreekkamer via Zorggroep Zuid");
        assert!(invite.body.contains("Log in met dit e-mailadres (anne@praktijk.nl) om je account aan te maken: https://app.example.nl/"));
        let access = render(&Letter::OrganisationAccess { name: "Anne", email: "anne@praktijk.nl", at: at() }, "https://x.nl");
        assert_eq!(access.subject, "Je hebt toegang tot Spreekkamer via Zorggroep Zuid");
        assert!(access.body.starts_with("Beste Anne,"));
        let admin = render(&Letter::OrganisationAdmin { name: "Anne", admin: true, at: at() }, "https://x.nl");
        assert_eq!(admin.subject, "Je bent beheerder van Praktijk De Linde in Spreekkamer");
        assert!(admin.body.contains("templates die met Praktijk De Linde of met Zorggroep Zuid gedeeld zijn wijzigen en verwijderen"));
        let no_more = render(&Letter::OrganisationAdmin { name: "Anne", admin: false, at: at() }, "https://x.nl");
        assert_eq!(no_more.subject, "Je bent geen beheerder meer van Praktijk De Linde in Spreekkamer");
    }

    #[test]
    fn the_html_body_is_the_text_escaped_with_paragraphs_and_links() {
        let r = Rendered { subject: "A & B".into(), body: "Beste <Anne>,\n\nLog in: https://app.example.nl/.\nTot ziens\n".into() };
        let h = html(&r);
        assert!(h.contains("<title>A &amp; B</title>"));
        assert!(h.contains("<p>Beste &lt;Anne&gt;,</p>"));
        assert!(h.contains("<p>Log in: <a href=\"https://app.example.nl/\">https://app.example.nl/</a>.<br>\nTot ziens</p>"));
    }
}
