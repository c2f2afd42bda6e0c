//! The Dutch e-mail texts. Each template renders a subject and a plain-text body.

use serde::{Deserialize, Serialize};

/// Which message to send.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Template {
    /// After the first sign-in: the account exists.
    Welcome,
}

/// What a template may mention about its recipient.
pub struct Recipient<'a> {
    /// The name they want to be addressed by, or their login name.
    pub name: &'a str,
    pub email: &'a str,
}

pub struct Rendered {
    pub subject: String,
    pub body: String,
}

pub fn render(template: Template, to: &Recipient<'_>, public_url: &str) -> Rendered {
    match template {
        Template::Welcome => Rendered {
            subject: "Welkom bij Spreekkamer".to_owned(),
            body: format!(
                "Beste {name},\n\
                 \n\
                 Welkom bij Spreekkamer. Je account is aangemaakt voor {email}.\n\
                 \n\
                 Neem een consult op, zie het gesprek live uitgeschreven en ontvang binnen enkele \
                 seconden een SOEP-verslag dat je zelf nakijkt en aanpast voordat het in het dossier komt.\n\
                 \n\
                 Aan de slag: {url}/\n\
                 \n\
                 Vragen of opmerkingen? Gebruik de feedbackknop in Spreekkamer; we lezen alles.\n\
                 \n\
                 Met vriendelijke groet,\n\
                 Het team van Spreekkamer\n",
                name = to.name,
                email = to.email,
                url = public_url,
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_welcome_names_the_person_their_address_and_the_link() {
        let r = render(Template::Welcome, &Recipient { name: "Anna", email: "anna@example.nl" }, "https://app.example.nl");
        assert_eq!(r.subject, "Welkom bij Spreekkamer");
        assert!(r.body.starts_with("Beste Anna,\n"));
        assert!(r.body.contains("aangemaakt voor anna@example.nl."));
        assert!(r.body.contains("Aan de slag: https://app.example.nl/"));
    }
}
