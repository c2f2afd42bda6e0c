//! A speaker's self-correction, as the record keeps it: only the corrected value.
//!
//! People correct themselves while they speak: "sinds drie, nee, vier dagen", "de pols honderd,
//! nee wacht, ik tel opnieuw, zesennegentig", "in mijn linkerhiel, nee sorry, rechterhiel". A GP
//! writes "sinds vier dagen", "pols 96", "rechterhiel". [`resolved`] does the same where the two
//! values are plainly one of a kind (two numbers, two moments, two sides, or the same opening
//! word said again) and leaves every other "nee" inside a sentence as it was spoken: "Een spiraal,
//! nee, dat zie ik niet zitten", "afvallen, nee, ik ben eerder aangekomen".

use std::borrow::Cow;

use super::numbers::{self, tail};
use super::style;

/// What a corrected value is: a number ("vier", "38,2", "52e"), a moment ("zaterdag",
/// "gisteravond", "mei") or a side ("links", "rechterhiel"). Numbers and moments correct each
/// other ("gisteren, nee, drie dagen geleden"); a side only a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Number,
    Moment,
    Side,
}

impl Kind {
    fn of(word: &str) -> Option<Kind> {
        let w = bare(word).to_lowercase();
        if w.starts_with(|c: char| c.is_ascii_digit()) || numbers::spelled(&w).is_some() || w == "een" || w == "één" {
            Some(Kind::Number)
        } else if MOMENTS.iter().any(|m| w.starts_with(m)) && !w.starts_with("morgens") {
            Some(Kind::Moment)
        } else if SIDES.iter().any(|s| w.starts_with(s)) {
            Some(Kind::Side)
        } else {
            None
        }
    }

    /// Whether a value of this kind may stand where one of `other` was said.
    fn corrects(self, other: Kind) -> bool {
        self == other || (self != Kind::Side && other != Kind::Side)
    }
}

/// The openings of the words that name a moment: the days, the months, the parts of a day.
const MOMENTS: [&str; 30] = [
    "maandag",
    "dinsdag",
    "woensdag",
    "donderdag",
    "vrijdag",
    "zaterdag",
    "zondag",
    "januari",
    "februari",
    "maart",
    "april",
    "mei",
    "juni",
    "juli",
    "augustus",
    "september",
    "oktober",
    "november",
    "december",
    "gister",
    "eergister",
    "vanochtend",
    "vanmorgen",
    "vanmiddag",
    "vanavond",
    "vannacht",
    "vandaag",
    "zomer",
    "winter",
    "herfst",
];

/// The openings of the words that name a side.
const SIDES: [&str; 4] = ["links", "rechts", "linker", "rechter"];

/// Words said between the "nee" and the corrected value that say nothing themselves: "nee wacht,
/// het was eerder vier uur".
const BETWEEN: [&str; 17] =
    ["wacht", "sorry", "pardon", "eigenlijk", "eerder", "nog", "het", "was", "is", "dat", "dus", "zeg", "maar", "even", "nou", "eh", "uh"];

/// Words that may open a corrected value said again with its preposition or its measure: "nee,
/// sinds begin september", "nee, bijna vier weken", "min zes, nee, min zeven".
const LEADS: [&str; 17] = [
    "sinds", "vanaf", "over", "binnen", "rond", "om", "na", "al", "bijna", "ruim", "pas", "precies", "ongeveer", "zo'n", "min", "circa",
    "wel",
];

/// Words that may follow a corrected value said alone where its clause goes on with something new:
/// "een week of acht nee eerder tien sinds de reorganisatie".
const GOES_ON: [&str; 17] =
    ["sinds", "en", "maar", "want", "dus", "in", "op", "per", "bij", "na", "voor", "met", "van", "tot", "toen", "of", "al"];

/// Most words a corrected-away value's clause is looked back for, where no comma opens it.
const REACH: usize = 8;

/// Most words of a clause said between the "nee" and the corrected value ("ik lees het
/// verkeerd,", "als ik eerlijk ben,").
const ASIDE: usize = 6;

/// A word without the punctuation around it ("vier," → "vier", "38,2," → "38,2").
fn bare(w: &str) -> &str {
    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
}

/// A spoken line with its values as the speaker meant them: numbers in digits
/// ([`numbers::in_digits`]) and each self-correction resolved ([`resolved`]).
pub(crate) fn values_as_meant(text: &str) -> Cow<'_, str> {
    match numbers::in_digits(text) {
        Cow::Borrowed(t) => resolved(t),
        Cow::Owned(t) => Cow::Owned(resolved(&t).into_owned()),
    }
}

/// `text` with each self-correction resolved to the corrected value (see the module); `text`
/// itself where it has none.
pub(crate) fn resolved(text: &str) -> Cow<'_, str> {
    // most sentences have no "nee" after their first word
    if !text.split_whitespace().skip(1).any(|w| bare(w).eq_ignore_ascii_case("nee")) {
        return Cow::Borrowed(text);
    }
    let mut words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
    let mut changed = false;
    let mut from = 1;
    while let Some(k) = (from..words.len()).find(|&k| bare(&words[k]).eq_ignore_ascii_case("nee")) {
        match correction(&words, k) {
            Some(corrected) => {
                words = corrected;
                changed = true;
                from = 1;
            }
            None => from = k + 1,
        }
    }
    if changed { Cow::Owned(words.join(" ")) } else { Cow::Borrowed(text) }
}

/// The words with the correction at `k` (the "nee") resolved, if it is one.
fn correction(words: &[String], k: usize) -> Option<Vec<String>> {
    let before = &words[k - 1];
    // the value corrected stands right before the "nee", or its clause ends there with a comma
    if !(tail(before).starts_with(',') || (tail(before).is_empty() && Kind::of(before).is_some())) {
        return None;
    }
    // the clause said first: back to the comma, colon or full stop before it
    let start = (k.saturating_sub(REACH)..k - 1)
        .rev()
        .find(|&i| tail(&words[i]).contains([',', ';', ':', '.', '?', '!']))
        .map_or(k.saturating_sub(REACH), |i| i + 1);
    let said = start..k;
    let j = corrected_from(words, k + 1)?;
    let first = bare(&words[j]).to_lowercase();
    let kind = Kind::of(&words[j]);
    // the corrected value: a value, or one opened by its preposition or measure
    let value_kind = kind.or_else(|| {
        (LEADS.contains(&first.as_str()) || words[said.clone()].iter().any(|w| bare(w).eq_ignore_ascii_case(&first)))
            .then(|| words.iter().skip(j + 1).take(3).find_map(|w| Kind::of(w)))
            .flatten()
    })?;
    // the clause said first holds a value it corrects: the last of the same kind where it has one
    // ("het gewicht is vandaag 94, nee, …": the 94, not "vandaag"; "van 30 naar 40, nee, 50": the
    // 40), else the first it may stand for ("vijf dagen geleden, nee, het was vrijdag")
    let corrected = said.clone().filter(|&i| Kind::of(&words[i]).is_some_and(|k| value_kind.corrects(k))).collect::<Vec<_>>();
    let same: Vec<usize> = corrected.iter().copied().filter(|&i| Kind::of(&words[i]) == Some(value_kind)).collect();
    let value_said = *same.last().or(corrected.first())?;
    // only "een" on both sides ("een kat, nee een hond") is a correction only when short
    let only_een = corrected.iter().all(|&i| bare(&words[i]).eq_ignore_ascii_case("een")) && first == "een";
    let rest_of_clause = words[j..].iter().position(|w| !tail(w).is_empty()).map_or(words.len() - j, |p| p + 1);
    if only_een && rest_of_clause > 3 {
        return None;
    }
    let mut out: Vec<String> = words[..start].to_vec();
    // a value said again with what followed it the first time stands in the place of the one it
    // corrects, the rest of that clause kept: "twee keer per dag 850 milligram, nee, drie keer per
    // dag" → "drie keer per dag 850 milligram"; so does one said alone, closing its clause
    // ("vier dagen, nee, vijf, het begon zondag" → "vijf dagen, het begon zondag") or where the
    // value closed the clause said first and what follows it is new ("een week of acht nee eerder
    // tien sinds de reorganisatie")
    let alone = kind.and_then(|_| {
        let closes = |i: usize| i + 1 == words.len() || !tail(&words[i]).is_empty();
        let same_words = |a: &String, b: &String| bare(a).eq_ignore_ascii_case(bare(b));
        // per value of the same kind, how many of the words after it are said again after the
        // correction
        let repeated = |v: usize| words[v + 1..k].iter().zip(&words[j + 1..]).take_while(|(a, b)| same_words(a, b)).count();
        let (value, m) = same.iter().map(|&v| (v, repeated(v))).max_by_key(|&(v, m)| (m, v))?;
        // one word said again is not enough where another value of the kind follows it: "een uur
        // of drie, nee, vier uur" corrects the three
        let another_follows = || words[value + 1 + m..k].iter().any(|w| Kind::of(w) == Some(value_kind));
        if m > 0 && (m == k - value - 1 || (closes(j + m) && (m >= 2 || !another_follows()))) {
            return Some((value, j + m + 1));
        }
        let value = *same.last()?;
        let spoken_on = match words.get(j + 1..j + 3).map(|w| [bare(&w[0]), bare(&w[1])]) {
            // "vrijdag was het, en sindsdien …"
            Some(["was" | "is", "het"]) => j + 3,
            _ => j + 1,
        };
        // "… acht nee eerder tien sinds de reorganisatie", not "een week of twee, nee, drie weken"
        let new_after = value == k - 1 && words.get(j + 1).is_none_or(|next| GOES_ON.contains(&bare(next).to_lowercase().as_str()));
        (closes(spoken_on - 1) || new_after).then_some((value, spoken_on))
    });
    match alone {
        Some((corrected_value, rest)) => {
            let value = bare(&words[j]);
            for i in said.clone() {
                let w = &words[i];
                let w = if i == corrected_value { w.replacen(bare(w), value, 1) } else { w.clone() };
                out.push(if i == k - 1 {
                    format!("{}{}", w.trim_end_matches(|c: char| !c.is_alphanumeric()), tail(&words[rest - 1]))
                } else {
                    w
                });
            }
            out.extend(words[rest..].iter().cloned());
        }
        None => {
            // said again from the word it opened with ("sinds zondag, nee, sinds zaterdag"), else
            // from the value it corrects with its measure ("in januari, nee, februari", "ongeveer
            // tien dagen geleden, nee, al twee weken")
            // (a value said again opens it only with the word after it: "twee keer tien, nee, twee
            // keer vijf")
            let again = |i: usize| {
                bare(&words[i]).eq_ignore_ascii_case(&first)
                    && (kind.is_none()
                        || (i + 1 < k && words.get(j + 1).is_some_and(|w| bare(w).eq_ignore_ascii_case(bare(&words[i + 1])))))
            };
            let opened_again = said.clone().rev().find(|&i| again(i));
            let led = |w: &String| LEADS.contains(&bare(w).to_lowercase().as_str());
            let cut = opened_again.unwrap_or_else(|| {
                // with the measure that made it a guess: "een uur of drie, nee, vier uur"
                let guessed = value_said >= start + 3
                    && bare(&words[value_said - 1]).eq_ignore_ascii_case("of")
                    && bare(&words[value_said - 3]).eq_ignore_ascii_case("een");
                let value = if guessed { value_said - 3 } else { value_said };
                match led(&words[j]) {
                    true => (start..value).rev().take_while(|&i| led(&words[i])).last().unwrap_or(value),
                    false => value,
                }
            });
            out.extend(words[start..cut].iter().cloned());
            let opens = out.is_empty();
            out.extend(words[j..].iter().cloned());
            if opens && let Some(w) = out.first_mut() {
                *w = style::capitalised(w);
            }
        }
    }
    Some(out)
}

/// Where the corrected value begins after the "nee" at `from - 1`: past the words that say
/// nothing ("wacht", "sorry") and past one short aside closed by a comma ("ik lees het verkeerd,")
/// that holds no value nor a denial.
fn corrected_from(words: &[String], from: usize) -> Option<usize> {
    let mut j = from;
    let mut aside_seen = false;
    while j < words.len() {
        let w = bare(&words[j]).to_lowercase();
        if BETWEEN.contains(&w.as_str()) {
            j += 1;
            continue;
        }
        if Kind::of(&words[j]).is_some() || LEADS.contains(&w.as_str()) || aside_seen {
            break;
        }
        let end = (j..words.len().min(j + ASIDE)).find(|&i| tail(&words[i]).starts_with(','))?;
        let aside = &words[j..=end];
        if aside.iter().any(|w| Kind::of(w).is_some() || matches!(bare(w).to_lowercase().as_str(), "niet" | "geen" | "nooit")) {
            return Some(j);
        }
        aside_seen = true;
        j = end + 1;
    }
    (j < words.len()).then_some(j)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corrected_value_stays() {
        for (spoken, kept) in [
            ("Sinds drie, nee, vier dagen vreselijke jeuk.", "Sinds vier dagen vreselijke jeuk."),
            ("Ik hoest nu vier dagen, nee, vijf, het begon zondag.", "Ik hoest nu vijf dagen, het begon zondag."),
            ("Het gewicht is vandaag 94, nee, ik lees het verkeerd, 96 kilo.", "Het gewicht is vandaag 96 kilo."),
            (
                "Temperatuur 38,8, de pols 100, nee wacht, ik tel opnieuw, 96, en de saturatie 95.",
                "Temperatuur 38,8, de pols 96, en de saturatie 95.",
            ),
            ("Sinds zondag, nee wacht, sinds zaterdagochtend draait alles.", "Sinds zaterdagochtend draait alles."),
            ("Ze heeft sinds eergisteren, nee, sinds gisterochtend, een rood oog.", "Ze heeft sinds gisterochtend, een rood oog."),
            ("Vijf dagen geleden, nee wacht, het was vrijdag, dus zes dagen geleden.", "Vrijdag, dus zes dagen geleden."),
            ("In januari, nee, februari begonnen als teamleider.", "In februari begonnen als teamleider."),
            ("Ik heb net 39,8 gemeten, nee sorry, 39,6, in zijn billetje.", "Ik heb net 39,6 gemeten, in zijn billetje."),
            (
                "Pijn in mijn linkerhiel, nee sorry, rechterhiel, het zit aan de achterkant.",
                "Pijn in mijn rechterhiel, het zit aan de achterkant.",
            ),
            ("De enalapril, twee keer tien, nee wacht, twee keer vijf milligram.", "De enalapril, twee keer vijf milligram."),
            ("Zaterdag een uur of drie, nee, het was eerder vier uur, en toen begon het.", "Zaterdag vier uur, en toen begon het."),
            ("Ik denk zo'n twintig dagen per maand, nee, meer, 25.", "Ik denk zo'n 25 dagen per maand."),
            ("hoeveel uur slaap je dan acht nee eerder tien", "hoeveel uur slaap je dan tien"),
            (
                "Het is al een week of zes zo, nee, sinds begin september, dus ruim twee maanden.",
                "Het is sinds begin september, dus ruim twee maanden.",
            ),
            (
                "Dat was vier dagen geleden, op zaterdag, nee, vrijdag was het, en sindsdien zit het vast.",
                "Dat was vier dagen geleden, op vrijdag, en sindsdien zit het vast.",
            ),
            (
                "Ik neem de metformine twee keer per dag 850 milligram, nee sorry, drie keer per dag, bij elke maaltijd.",
                "Ik neem de metformine drie keer per dag 850 milligram, bij elke maaltijd.",
            ),
            (
                "Toen heeft ze tien dagen amoxicilline gehad, nee zeven dagen, een week.",
                "Toen heeft ze zeven dagen amoxicilline gehad, een week.",
            ),
            (
                "een week of acht nee eerder tien sinds de reorganisatie op mijn werk",
                "een week of tien sinds de reorganisatie op mijn werk",
            ),
            ("Sinds zondag, dus drie dagen, nee wacht, vier dagen nu.", "Sinds zondag, dus vier dagen nu."),
            ("Ongeveer tien dagen geleden, nee, het is al twee weken, een rode plek.", "Al twee weken, een rode plek."),
            (
                "Het is al een week of zes zo, nee, zes weken precies, en 's nachts het ergst.",
                "Het is al zes weken precies, en 's nachts het ergst.",
            ),
            ("Een week of twee, nee, drie weken alweer.", "Drie weken alweer."),
            ("Een week of zes, nee, zeven al.", "Een week of zeven al."),
            (
                "Ik ben van dertig naar veertig, nee, vijftig kilometer per week gegaan.",
                "Ik ben van dertig naar vijftig kilometer per week gegaan.",
            ),
            (
                "Afgelopen winter één keer, nee wacht, twee keer, allebei na een verkoudheid.",
                "Afgelopen winter twee keer, allebei na een verkoudheid.",
            ),
            (
                "Het begon gisteravond rond 9 uur, nee wacht, het was al rond 7 uur, bij het journaal.",
                "Het begon gisteravond al rond 7 uur, bij het journaal.",
            ),
        ] {
            assert_eq!(resolved(spoken), kept, "{spoken}");
        }
    }

    #[test]
    fn other_nees_stay_as_spoken() {
        for spoken in [
            "Nee, geen koorts.",
            "Nee, nee, aan doodgaan denk ik niet.",
            "Een spiraal, nee, dat zie ik niet zitten.",
            "En afvallen, nee, ik ben eerder aangekomen.",
            "Een paar seconden, soms een paar minuten, nee, nooit langer dan een minuut.",
            "Oefen thuis met nee zeggen zoals we besproken hebben.",
            "Ik heb een week gewacht, nee, een dokter heb ik toen niet gezien.",
            "Maandag de vijftiende, nee, dan is mijn vrouw jarig.",
            "Op zaterdag kan het zomaar tien worden, nee, als ik eerlijk ben, soms nog meer.",
        ] {
            assert_eq!(resolved(spoken), spoken);
        }
    }
}
