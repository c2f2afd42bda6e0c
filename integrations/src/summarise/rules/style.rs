//! Note style: light, safe rewrites of spoken sentences, and the style learnt from the
//! clinician's own SOEP examples.
//!
//! Safe rewrites only: leading fillers ("eh", "nou", "ja", "oké") and vocatives ("dokter,") go,
//! the first letter is capitalised and the sentence ends with a full stop. First person stays
//! first person, except in telegram style, where only a leading "ik heb", "ik ben" and the like
//! is dropped ("Ik heb sinds gisteren keelpijn." → "sinds gisteren keelpijn").

use crate::summarise::SoapExample;

use super::cues;
use super::labels;

/// Leading words that carry nothing in a note. Stripped when followed by a comma or a space.
const FILLERS: &[&str] = &[
    "eh",
    "ehm",
    "uh",
    "uhm",
    "hm",
    "hmm",
    "nou",
    "ja",
    "jawel",
    "oké",
    "ok",
    "okay",
    "tja",
    "kijk",
    "zo",
    "nou ja",
    "ja ja",
    "goed",
    "oh",
    "o",
    "ah",
    "ach",
    "dus",
    "dank u wel",
    "dank je wel",
    "dank u",
    "goedemorgen",
    "goedemiddag",
    "goedenavond",
];

/// Fillers that are only stripped when a comma follows them ("Goed, ..." but not "Goed
/// ingesteld.", "Dus, ..." but not "Dus u heeft ..."; "Dank u wel, voelt zich al lichter").
const COMMA_ONLY: &[&str] =
    &["goed", "zo", "kijk", "dus", "o", "oh", "ah", "dank u wel", "dank je wel", "dank u", "goedemorgen", "goedemiddag", "goedenavond"];

/// Forms of address at the start or end of a sentence.
const VOCATIVES: &[&str] = &["dokter", "mevrouw", "meneer", "dokter", "zuster"];

/// First-person openings dropped in telegram style, longest first.
const TELEGRAM_DROP: &[&str] = &[
    "ik heb last van",
    "ik heb ook last van",
    "ik heb al",
    "ik heb ook",
    "ik heb",
    "ik had",
    "ik ben al",
    "ik ben",
    "ik voel me",
    "ik merk dat",
    "ik merk",
    "ik",
    "mijn",
    "het is",
    "er is",
];

/// `s` without its leading fillers and vocatives.
pub(crate) fn strip_leading_fillers(s: &str) -> &str {
    let mut t = s.trim();
    loop {
        let before = t.len();
        for f in FILLERS.iter().chain(VOCATIVES) {
            if !cues::at_start(t, f) {
                continue;
            }
            let rest = &t[f.len()..];
            let comma = rest.starts_with(',');
            if !comma && (COMMA_ONLY.contains(f) || VOCATIVES.contains(f) || rest.trim().is_empty()) {
                continue;
            }
            t = rest.trim_start_matches([',', ' ']).trim_start();
            break;
        }
        if t.len() == before || t.is_empty() {
            return t;
        }
    }
}

/// The sentence as it goes into a note: fillers and vocatives stripped, capitalised, closed
/// with a full stop.
pub(crate) fn note_text(s: &str) -> String {
    let t = strip_leading_fillers(s);
    let mut t = strip_trailing_vocative(t).to_owned();
    for filler in [" eh,", " ehm,", " eh ", " ehm ", " uh ", " uhm "] {
        while let Some(i) = t.find(filler) {
            t.replace_range(i..i + filler.len(), " ");
        }
    }
    finish(&t)
}

fn strip_trailing_vocative(s: &str) -> &str {
    let t = s.trim_end_matches(['.', '!', ' ']);
    for v in VOCATIVES {
        if let Some(head) = t.strip_suffix(v)
            && let Some(head) = head.strip_suffix(", ")
        {
            let end = &s[t.len()..];
            // Keep the question mark of a question.
            return if end.contains('?') { s } else { head };
        }
    }
    s
}

/// Capitalises the first letter and makes sure the text ends with a full stop (or its own
/// question or exclamation mark).
pub(crate) fn finish(s: &str) -> String {
    let t = s.trim().trim_end_matches([',', ';', ':']).trim_end();
    let mut out = capitalised(t);
    if !out.is_empty() && !out.ends_with(['.', '?', '!']) {
        out.push('.');
    }
    sentences_capitalised(&out)
}

/// `text` with each sentence after the first opening with a capital, where a rewrite left its
/// first word out ("Dan het roken. U zei dat …" → "… Zei dat …"). An abbreviation's full stop
/// ("o.a. de knie", "ca. 3 weken") closes no sentence.
fn sentences_capitalised(text: &str) -> String {
    if !text.contains(". ") {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut words = text.split(' ').peekable();
    let mut closes = false;
    while let Some(w) = words.next() {
        if closes && w.starts_with(|c: char| c.is_lowercase()) {
            out.push_str(&capitalised(w));
        } else {
            out.push_str(w);
        }
        let body = w.trim_end_matches('.');
        closes = w.ends_with('.') && body.chars().count() > 3 && !body.contains('.') && !w.ends_with("..");
        if words.peek().is_some() {
            out.push(' ');
        }
    }
    out
}

/// `text` with its first letter in capitals; the Dutch digraph whole: "IJs", "IJzer".
pub(crate) fn capitalised(text: &str) -> String {
    // "'s nachts" opens a sentence as "'s Nachts": the apostrophe's word stays small
    if let Some(rest) = text.strip_prefix("'s ").filter(|r| r.starts_with(char::is_lowercase)) {
        return format!("'s {}", capitalised(rest));
    }
    match text.strip_prefix("ij") {
        Some(rest) => format!("IJ{rest}"),
        None => {
            let mut c = text.chars();
            c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
        }
    }
}

/// Turns the patient's answer to the clinician's question into a note sentence, in the
/// clinical register and never as a question: "Heeft u koorts?" + "Nee." → "Geen koorts.";
/// "Hoest u ook?" + "Nee, eigenlijk niet." → "Geen hoest."; "Bent u misselijk?" + "Ja, 's
/// ochtends." → "Misselijk, 's ochtends."; "Slaapt u goed?" + "Nee." → "Slaapt niet goed."; an
/// answer with its own content says it itself ("Ja, wit slijm." → "Wit slijm."); an open
/// question's answer stands alone ("Hoe lang al?" + "Vier maanden." → "Vier maanden.").
/// `None` when the answer says nothing (an acknowledgement without yes or no).
pub(crate) fn answer_to_note(question: &str, answer: &str) -> Option<String> {
    let q = strip_leading_fillers(labels::strip_label(question)).trim_end_matches(['?', ' ', '.']);
    // "En heeft u hem ooit verdraaid?": the question after the word that links it on
    let q = ["en ", "maar ", "en dan ", "dan ", "verder ", "ook "]
        .iter()
        .rev()
        .find_map(|c| q.get(..c.len()).filter(|h| h.eq_ignore_ascii_case(c)).map(|_| &q[c.len()..]))
        // a verb and its subject, not a clause ("en als u zit of ligt, …")
        .filter(|rest| {
            question_phrase(rest).is_some()
                && rest.split_whitespace().next().is_some_and(|v| super::register::opens_question(&v.to_lowercase()))
        })
        .unwrap_or(q);
    let a_full = labels::strip_label(answer).trim().trim_start_matches(|c: char| !c.is_alphanumeric());
    let a = strip_leading_fillers(a_full);
    let Some((yes, rest)) = yes_or_no(a_full) else {
        let a = a.trim();
        if a.is_empty() || super::lexicon::is_ack(a) {
            return None;
        }
        return Some(finish(a));
    };
    let rest = rest.trim_start_matches(['.', ',', '!', ' ']).trim_end_matches(['.', ' ', '!']);
    let rest = strip_leading_fillers(rest);
    // "Nee, echt niet, ik denk aan mijn kinderen": the no said again is not news.
    let mut rest = rest;
    for again in ["echt", "zeker", "helemaal", "niet", "nee", "nooit"] {
        if cues::at_start(rest, again)
            && rest[again.len()..].starts_with([',', ' '])
            && !rest[again.len()..].trim_start_matches([',', ' ']).is_empty()
        {
            let after = rest[again.len()..].trim_start_matches([',', ' ']);
            // "Nee, nooit gerookt": "nooit" is the answer's own word, repeated only with its comma
            if !matches!(again, "niet" | "nooit") || rest[again.len()..].starts_with(',') {
                rest = after;
            }
        }
    }
    // "Nee, dat niet, ademen gaat prima": the pointer back at the question, then news of its own,
    // which follows what was asked
    let mut pointed = false;
    if let Some((pointer, news)) = rest.split_once(", ")
        && points_back(pointer)
        && !says_nothing(news)
    {
        rest = news.trim_end_matches(['.', ' ', '!']);
        pointed = true;
    }
    let says_nothing = says_nothing(rest);
    let negated = cues::at_start(rest, "geen") || cues::at_start(rest, "niet") || cues::at_start(rest, "nooit");
    let rest_words = rest.split_whitespace().count();
    // an elliptic question, a thing without its verb: "Koorts gehad?" + "Nee." → "Geen koorts gehad."
    let phrases = question_phrases(q);
    if phrases.is_none() && elliptic(q) {
        let x = q.trim();
        let text = if yes { lower_first(x) } else { have_not(&lower_first(x)) };
        let text = match says_nothing {
            true => text,
            // "Koorts? — Nee, geen koorts, ik voel me prima": the answer says it itself
            false if negated || shared_words(&text, rest) >= 1 => rest.to_owned(),
            false => format!("{text}, {rest}"),
        };
        return Some(finish(&text));
    }
    let Some(phrases) = phrases else {
        // A question too involved to turn round: the answer's own words, or the question as a
        // statement with the answer after it.
        if !says_nothing {
            return Some(finish(rest));
        }
        let statement = q.split_whitespace().filter(|w| !matches!(w.to_lowercase().as_str(), "u" | "uw")).collect::<Vec<_>>().join(" ");
        return Some(finish(&format!("{statement}: {}", if yes { "ja" } else { "nee" })));
    };
    // the question's "u" is the patient: "Geen aanvallen waarbij patiënt ineens heel bang wordt"
    let notes: Vec<String> = phrases.iter().map(|p| p.note(yes).trim_end_matches([',', ' ']).to_owned()).collect();
    let as_recorded =
        |notes: &[&str]| super::register::addressee_named(&possessive_as_article(&notes.join(if yes { " of " } else { ", " })));
    let core = as_recorded(&notes.iter().map(String::as_str).collect::<Vec<_>>());
    if !yes && !says_nothing && denies_in_a_clause_of_its_own(rest, &phrases) {
        // what the answer's clause leaves unsaid stays denied before it ("Was u duizelig of even
        // weg?" + "Nee, ik bleef haken, ik was niet duizelig" → "Niet weg geweest, …")
        let unsaid: Vec<&str> = phrases.iter().zip(&notes).filter(|(p, _)| !said_again(rest, p)).map(|(_, n)| n.as_str()).collect();
        let text = if unsaid.is_empty() { rest.to_owned() } else { format!("{}, {rest}", as_recorded(&unsaid)) };
        return Some(finish(&text));
    }
    let text = if says_nothing {
        core
    } else if pointed && !covers(rest, &core) {
        format!("{core}, {rest}")
    } else if negated
        || (yes && rest_words >= 3 && !qualifies(rest) && shares_word(&core, rest))
        || (!yes && covers(rest, &core) && ["niet", "geen", "nooit"].iter().any(|n| cues::has_cue(rest, n)))
        // a long denial of what was asked, item by item in its own words ("Nee, ik rook niet, ik
        // heb geen migraine, en van trombose in de familie weet ik niks")
        || (!yes
            && rest_words >= 6
            && shared_words(&core, rest) >= 2
            && ["niet", "geen", "nooit", "niks", "niets"].iter().filter(|n| cues::has_cue(rest, n)).count() >= 2)
    {
        // the answer denies all the question asked, in its own words ("Nee, pijn op de borst of
        // hartkloppingen heb ik niet gehad"): once
        rest.to_owned()
    } else {
        format!("{core}, {rest}")
    };
    Some(finish(&text))
}

/// Whether a "no" answer denies what was asked in a clause of its own, with its subject, its
/// verb and the word a question asked about ("Weet ze het de volgende ochtend nog?" + "Nee, ze
/// weet er 's ochtends niets meer van"; "Ben je gevallen?" + "Nee, ik ben niet gevallen, het kwam
/// vanzelf opzetten"): the answer says it whole, where the question turned round would not.
fn denies_in_a_clause_of_its_own(rest: &str, phrases: &[Phrase<'_>]) -> bool {
    let words = lower_words(rest);
    words.len() >= 4
        && words.first().is_some_and(|w| matches!(w.as_str(), "ik" | "ze" | "zij" | "hij" | "het" | "we" | "wij"))
        && words.iter().any(|w| matches!(w.as_str(), "niet" | "geen" | "nooit" | "niks" | "niets" | "nergens"))
        && phrases.iter().any(|p| said_again(rest, p))
}

/// Whether the answer names what the phrase asked about: its verb ("Weet ze het nog" → "weet"),
/// or the first word of four letters or more of the thing ("Bent u gevallen" → "gevallen";
/// "Heeft u gedachten om uzelf iets aan te doen" → "gedachten", never the "doen" of any answer).
fn said_again(rest: &str, p: &Phrase<'_>) -> bool {
    let said = lower_words(rest);
    let thing = lower_words(p.x).into_iter().find(|w| w.chars().count() >= 4);
    (matches!(p.kind, Kind::Verb) && said.contains(&p.verb.to_lowercase())) || thing.is_some_and(|w| said.contains(&w))
}

/// The words of `s`, lowercase, without their punctuation.
fn lower_words(s: &str) -> Vec<String> {
    s.split_whitespace().map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase()).collect()
}

/// The question's "je" before what it asks about, after a preposition, as the article the record
/// writes: "Geen pijn in je nek" → "Geen pijn in de nek", "naar je benen" → "naar de benen", "in je
/// oog" → "in het oog".
fn possessive_as_article(core: &str) -> String {
    const PREPOSITIONS: &[&str] =
        &["in", "op", "aan", "bij", "naar", "uit", "van", "onder", "achter", "boven", "rond", "tussen", "over", "tegen"];
    // the body's neuter words; the others, and every plural, take "de"
    const NEUTER: &[&str] =
        &["oog", "been", "hoofd", "oor", "gezicht", "lichaam", "hart", "oogwit", "gewricht", "kruis", "borstbeen", "bekken", "kuiltje"];
    let words: Vec<&str> = core.split(' ').collect();
    let mut out: Vec<&str> = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let after_preposition = i > 0 && PREPOSITIONS.iter().any(|p| p.eq_ignore_ascii_case(words[i - 1]));
        if after_preposition
            && matches!(*w, "je" | "jouw")
            && let Some(noun) = words.get(i + 1)
        {
            let noun = noun.trim_end_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
            out.push(if NEUTER.contains(&noun.as_str()) { "het" } else { "de" });
        } else {
            out.push(w);
        }
    }
    out.join(" ")
}

/// Whether a question is a thing asked about without its verb ("Koorts gehad", "Pijn bij het
/// plassen"): at most four words, the first neither a verb nor a question word nor an adverb.
fn elliptic(q: &str) -> bool {
    let words = lower_words(q);
    let Some(first) = words.first() else { return false };
    words.len() <= 4
        && first.chars().count() >= 4
        && !super::register::opens_question(first)
        && !super::lexicon::QUESTION_WORD.starts_any(first)
        && !["vaak", "soms", "altijd", "nooit", "alleen", "echt", "ergens", "daarna", "sinds"].contains(&first.as_str())
        && !first.ends_with("lijk")
        && !first.ends_with("ig")
}

/// A leading yes or no, and the rest of the answer.
pub(crate) fn yes_or_no(answer: &str) -> Option<(bool, &str)> {
    let a = answer.trim().trim_start_matches(|c: char| !c.is_alphanumeric());
    let a = match cues::at_start(a, "au") {
        true => a[2..].trim_start_matches([',', ' ', '!']),
        false => a,
    };
    ["nee hoor", "neen", "nee", "niet", "nooit", "nergens"].iter().find(|w| cues::at_start(a, w)).map(|w| (false, &a[w.len()..])).or_else(
        || {
            ["ja hoor", "jawel", "ja", "klopt", "zeker", "inderdaad", "wel"]
                .iter()
                .find(|w| cues::at_start(a, w))
                .map(|w| (true, &a[w.len()..]))
        },
    )
}

/// True when two texts share a word of four letters or more ("wit slijm" and "geeft slijm op"):
/// then the answer repeats what was asked and can stand alone.
fn shares_word(a: &str, b: &str) -> bool {
    let a = telling_words(a);
    telling_words(b).iter().any(|w| a.contains(w))
}

/// How many words of five letters or more two texts share ("iets", "doen" and the negations tell
/// too little): "geen migraine, … trombose in de familie" and "ik heb geen migraine, en van
/// trombose in de familie weet ik niks" share three.
fn shared_words(a: &str, b: &str) -> usize {
    let a = telling_words(a);
    let mut b = telling_words(b);
    b.sort();
    b.dedup();
    b.iter().filter(|w| w.chars().count() >= 5 && !matches!(w.as_str(), "nooit" | "niets") && a.contains(w)).count()
}

/// The words of `s` of four letters or more, lowercase: the ones that tell what it is about.
fn telling_words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() >= 4).map(str::to_lowercase).collect()
}

/// Whether `text` holds every telling word of `core` (four letters or more, the negation and
/// "gehad" aside).
fn covers(text: &str, core: &str) -> bool {
    let held = telling_words(text);
    let wanted: Vec<String> =
        telling_words(core).into_iter().filter(|w| !matches!(w.as_str(), "geen" | "niet" | "nooit" | "gehad")).collect();
    !wanted.is_empty() && wanted.iter().all(|w| held.contains(w))
}

/// True when the rest of an answer only qualifies the yes ("vooral 's avonds", "een beetje").
fn qualifies(rest: &str) -> bool {
    [
        "vooral",
        "alleen",
        "soms",
        "af en toe",
        "'s",
        "een beetje",
        "beetje",
        "nauwelijks",
        "vaak",
        "meestal",
        "elke",
        "iedere",
        "sinds",
        "al",
    ]
    .iter()
    .any(|q| cues::at_start(rest, q))
}

/// Whether `part` only points back at the question, its yes or no said again ("dat niet", "niets
/// daarvan", "dat wel hoor").
fn points_back(part: &str) -> bool {
    const POINTERS: &[&str] =
        &["dat", "die", "niet", "wel", "ook", "nee", "ja", "niks", "niets", "daarvan", "hoor", "eigenlijk", "echt", "helemaal"];
    let words: Vec<&str> = part.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    !words.is_empty() && words.iter().all(|w| POINTERS.iter().any(|p| p.eq_ignore_ascii_case(w)))
}

/// True when the rest of a yes or no adds nothing: empty, an acknowledgement, fillers, or a
/// pointer back at the question ("dat niet", "niks van dat", "dat heb ik niet gezien").
fn says_nothing(rest: &str) -> bool {
    let plain: Vec<&str> = rest
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .filter(|w| !["eigenlijk", "hoor", "echt", "helemaal", "absoluut", "zeker"].iter().any(|f| f.eq_ignore_ascii_case(w)))
        .collect();
    if plain.is_empty() || super::lexicon::is_ack(&plain.join(" ")) {
        return true;
    }
    let first = plain[0].to_lowercase();
    (matches!(first.as_str(), "dat" | "die" | "niks" | "niets" | "nee" | "ook") && plain.len() <= 6)
        || plain.iter().all(|w| ["niet", "nee", "dat", "ook", "nooit", "wel", "ja"].iter().any(|f| f.eq_ignore_ascii_case(w)))
}

#[derive(Clone, Copy)]
enum Kind {
    /// "Heeft u koorts" → koorts / geen koorts.
    Have,
    /// "Bent u misselijk" → misselijk / niet misselijk.
    Be,
    /// "Is er bloed bij" → bloed bij / geen bloed bij.
    There,
    /// "Slaapt u goed" → slaapt goed / slaapt niet goed; "Hoest u" → hoest / geen hoest.
    Verb,
}

/// One asked-about thing of a yes/no question.
struct Phrase<'q> {
    kind: Kind,
    verb: &'q str,
    /// Whether the question asked "je" or "jij", whose verb is the stem ("word je gepest").
    je: bool,
    x: &'q str,
}

impl Phrase<'_> {
    fn note(&self, yes: bool) -> String {
        let x = self.x;
        let verb = said_of_patient(&self.verb.to_lowercase(), self.je);
        match (self.kind, yes) {
            (Kind::Have | Kind::Be | Kind::There, true) => x.to_owned(),
            (Kind::Have | Kind::There, false) => have_not(x),
            (Kind::Be, false) => format!("niet {x}"),
            (Kind::Verb, true) => format!("{verb} {x}").trim().to_owned(),
            (Kind::Verb, false) => {
                // The complaint as a noun ("hoest" → "geen hoest").
                const NOUNS: &[(&str, &str)] =
                    &[("hoest", "hoest"), ("niest", "niezen"), ("braakt", "braken"), ("spuugt", "spugen"), ("piept", "piepen")];
                if x.is_empty()
                    && let Some((_, n)) = NOUNS.iter().find(|(v, _)| *v == verb)
                {
                    return format!("geen {n}");
                }
                let first = x.split_whitespace().next().unwrap_or("").to_lowercase();
                const ADVERBS: &[&str] = &[
                    "goed",
                    "slecht",
                    "veel",
                    "weinig",
                    "vaak",
                    "snel",
                    "meer",
                    "minder",
                    "wel",
                    "altijd",
                    "'s",
                    "zwaar",
                    "door",
                    "uit",
                    "mee",
                    "naar",
                    "in",
                    "op",
                    "aan",
                    "dubbel",
                    "af",
                    "toe",
                    "dat",
                    "zelf",
                    "regelmatig",
                    "elke",
                    "iedere",
                    "nog",
                    "alleen",
                ];
                // "huilt ze erbij" → "huilt er niet bij"; "lijkt het haar pijn te doen" → "lijkt
                // haar geen pijn te doen": the negation after the pronoun
                if let Some(prep) = first.trim_end_matches(',').strip_prefix("er").filter(|p| ERBIJ.contains(p)) {
                    let rest = x.split_once(' ').map_or("", |(_, r)| r);
                    return format!("{verb} er niet {prep} {rest}").trim().to_owned();
                }
                if matches!(first.as_str(), "haar" | "hem" | "me" | "mij" | "zich") && x.split_whitespace().count() > 1 {
                    // "Voelt u zich ook somber?" → "voelt zich niet somber"; a complaint named is
                    // denied with "geen" ("lijkt haar geen pijn te doen")
                    let (pronoun, rest) = x.split_once(' ').unwrap_or((x, ""));
                    let rest = without_softeners(rest.split_whitespace()).join(" ");
                    let complaint = rest
                        .split_whitespace()
                        .next()
                        .is_some_and(|w| matches!(w.to_lowercase().as_str(), "pijn" | "last" | "moeite" | "zin" | "zorgen" | "klachten"));
                    return format!("{verb} {pronoun} {} {rest}", if complaint { "geen" } else { "niet" }).trim().to_owned();
                }
                // a participle is denied with "niet": "moet niet geopereerd worden"
                let participle = is_participle(&first);
                // a modal with its infinitive is denied with "niet": "kan niet plat liggen"
                let modal = matches!(verb.as_str(), "kan" | "wil" | "moet" | "durft" | "zal" | "hoeft")
                    && x.split_whitespace().any(|w| (w.len() > 3 && w.ends_with("en")) || w == "zijn");
                // a preposition opens no thing to deny with "geen": "klaagt niet over hoofdpijn"
                let preposition = ERBIJ.contains(&first.as_str()) || OPENING_PREPOSITIONS.contains(&first.as_str());
                // softeners alone deny the verb itself: "Jeukt hij weleens?" → "jeukt niet"
                if without_softeners(x.trim_end_matches([',', ' ']).split_whitespace()).is_empty() {
                    return format!("{verb} niet");
                }
                let known =
                    DEFINITE.contains(&first.as_str()) || participle || modal || preposition || COMPARATIVES.contains(&first.as_str());
                if x.is_empty() || known || ADVERBS.contains(&first.as_str()) || first.ends_with("ig") || first.ends_with("lijk") {
                    format!("{verb} niet {x}").trim().to_owned()
                } else {
                    niets_for_geen_iets(&format!("{verb} geen {}", x.strip_prefix("een ").unwrap_or(x)))
                }
            }
        }
    }
}

/// Comparatives that a denial takes with "niet": "loopt niet langzamer".
const COMPARATIVES: &[&str] =
    &["langzamer", "sneller", "slechter", "beter", "vaker", "erger", "zwaarder", "korter", "langer", "eerder", "moeilijker", "makkelijker"];

/// The verb of a question to the patient as said of the patient: "kunt" → "kan", "word" (asked
/// with "je") → "wordt".
fn said_of_patient(verb: &str, je: bool) -> String {
    if let Some(third) = super::register::second_person_third(verb) {
        return third.to_owned();
    }
    match verb {
        // a stem, never a modal's ("wil je") or a word that only stands where the verb would
        // ("door je knie gezakt")
        v if je
            && !v.ends_with('t')
            && !v.ends_with("en")
            && !matches!(v, "wil" | "kan" | "zal" | "mag")
            && !OPENING_PREPOSITIONS.contains(&v)
            && !ERBIJ.contains(&v) =>
        {
            format!("{v}t")
        }
        v => v.to_owned(),
    }
}

/// Words that open a known thing, which "niet" denies where "geen" would deny a thing in general
/// ("dit niet eerder gehad", not "geen dit eerder gehad").
const DEFINITE: &[&str] = &["dit", "dat", "het", "die", "deze", "de", "uw", "je", "jouw", "zijn", "haar", "hem", "hun", "zich"];

/// The prepositions of "erbij", "ervan" …, which stand apart when denied ("er niet bij").
const ERBIJ: &[&str] = &["bij", "van", "over", "na", "in", "op", "aan", "door", "uit", "voor", "tegen", "mee", "om", "achter"];

/// Prepositions that may open what a "heeft u" question asks about, before the thing itself
/// ("Heeft u tijdens zo'n aanval ook hoofdpijn gehad").
const OPENING_PREPOSITIONS: &[&str] = &["tijdens", "bij", "na", "in", "op", "sinds", "voor", "met", "door", "rond", "onder", "boven"];

/// What a "heeft u …" question asked about, denied: "geen koorts", "dit niet eerder gehad",
/// "tijdens zo'n aanval geen hoofdpijn, dubbelzien of krachtverlies gehad".
fn have_not(x: &str) -> String {
    let denied = have_not_at(x);
    // "dit niet ooit eerder gehad" is "dit nooit eerder gehad"
    niets_for_geen_iets(&denied.replace("niet ooit", "nooit"))
}

/// "geen iets" is "niets" wherever a denial put it: "Bij de oxycodon geen iets voor de ontlasting
/// gekregen" → "… niets voor de ontlasting gekregen", "loopt geen iets uit" → "loopt niets uit".
fn niets_for_geen_iets(denied: &str) -> String {
    denied.replace("geen iets", "niets").replace("Geen iets", "Niets")
}

/// [`have_not`] before its last touch.
fn have_not_at(x: &str) -> String {
    let words: Vec<&str> = x.split_whitespace().collect();
    // "er 's nachts ook last van": the complaint itself is denied ("'s nachts ook geen last van")
    if words.first().is_some_and(|w| w.eq_ignore_ascii_case("er"))
        && let Some(k) = words.iter().position(|w| w.eq_ignore_ascii_case("last"))
    {
        return format!("{} geen {}", words[1..k].join(" "), words[k..].join(" ")).trim().to_owned();
    }
    let lower = |i: usize| words.get(i).map(|w| w.to_lowercase()).unwrap_or_default();
    let without_article = |s: String| s.strip_prefix("een ").map(str::to_owned).unwrap_or(s);
    // the question's reflexive "je" with its participle: "je verstapt" → "zich niet verstapt"
    if let [me, done] = words.as_slice()
        && matches!(me.to_lowercase().as_str(), "je" | "me")
        && has_participle_shape(&done.to_lowercase())
    {
        return format!("zich niet {done}");
    }
    if DEFINITE.contains(&lower(0).as_str()) && tail_free(words[0]) {
        // an article or possessive with its noun and a participle: "de pols niet verzwikt"; an
        // article with its noun otherwise is "geen" with the noun ("geen gevoel dat …"); a pronoun
        // is denied as itself ("dit niet eerder gehad")
        let participle = words.len() >= 3 && has_participle_shape(&words[words.len() - 1].to_lowercase());
        let noun_follows = matches!(lower(0).as_str(), "de" | "het" | "uw" | "je" | "jouw" | "zijn" | "haar" | "hun") && words.len() >= 2;
        return match (noun_follows, participle) {
            (true, true) if tail_free(words[1]) => format!("{} {} niet {}", words[0], words[1], words[2..].join(" ")),
            (true, false) if matches!(lower(0).as_str(), "de" | "het") => format!("geen {}", words[1..].join(" ")),
            _ => format!("{} niet {}", words[0], words[1..].join(" ")).trim().to_owned(),
        };
    }
    if OPENING_PREPOSITIONS.contains(&lower(0).as_str()) {
        // the preposition, a determiner where one follows, and its noun
        let phrase = if matches!(lower(1).as_str(), "een" | "de" | "het" | "zo'n" | "die" | "deze" | "dit" | "dat" | "uw") { 3 } else { 2 };
        let rest = without_softeners(words.iter().skip(phrase).copied());
        if words.len() > phrase && words[..phrase].iter().all(|w| tail_free(w)) && !rest.is_empty() {
            return format!("{} geen {}", words[..phrase].join(" "), without_article(rest.join(" ")));
        }
    }
    // a participle alone is denied with "niet": "Heeft hij gebloed?" → "niet gebloed"
    if let [w] = words.as_slice()
        && is_participle(&w.to_lowercase())
    {
        return format!("niet {w}");
    }
    format!("geen {}", without_article(x.to_owned()))
}

/// Whether `w` (lowercase, its punctuation after it ignored) has a weak participle's shape with
/// its prefix: "verzwikt", "verstapt", "gebloed" (a strong one, "gebroken", has not).
fn has_participle_shape(w: &str) -> bool {
    let w = w.trim_end_matches(|c: char| !c.is_alphanumeric());
    ["ge", "ver", "be", "ont", "her"].iter().any(|p| w.starts_with(p)) && w.ends_with(['d', 't'])
}

/// Whether `w` (lowercase) has a participle's shape: "gebloed", "gevallen", "geopereerd".
fn is_participle(w: &str) -> bool {
    w.starts_with("ge") && w.len() > 4 && w.ends_with(['d', 't', 'n'])
}

/// The words after the softeners that open them ("ook", "nog", "weleens" …), where a denial
/// stands before what follows: "voelt zich niet somber", "tijdens zo'n aanval geen hoofdpijn".
fn without_softeners<'a>(words: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    words.skip_while(|w| matches!(w.to_lowercase().as_str(), "ook" | "nog" | "wel" | "al" | "weleens" | "ooit" | "soms")).collect()
}

/// Whether a word carries no punctuation after it.
fn tail_free(w: &str) -> bool {
    w.ends_with(|c: char| c.is_alphanumeric())
}

/// The asked-about things of a yes/no question ("Heeft u ook koorts" → koorts; "Bent u misselijk
/// of ziet u dubbel" → misselijk, dubbel zien). `None` for other questions.
fn question_phrases(q: &str) -> Option<Vec<Phrase<'_>>> {
    let mut out = Vec::new();
    for clause in question_clauses(q) {
        out.extend(or_phrases(clause)?);
    }
    Some(out)
}

/// The questions of a question that asks several, each opening with its verb and subject after a
/// comma: "Bent u kortademig, heeft u pijn op de borst of hoest u bloed op" is "Bent u
/// kortademig" and "heeft u pijn op de borst of hoest u bloed op". A comma before anything else
/// stays inside its question ("Heeft u pijn, ook 's nachts").
fn question_clauses(q: &str) -> Vec<&str> {
    let mut clauses = Vec::new();
    let mut start = 0;
    for (i, _) in q.match_indices(", ") {
        let next = &q[i + 2..];
        let verb = next.split_whitespace().next().unwrap_or("").to_lowercase();
        if i > start && question_phrase(next).is_some() && super::register::opens_question(&verb) {
            clauses.push(&q[start..i]);
            start = i + 2;
        }
    }
    clauses.push(&q[start..]);
    clauses
}

/// The things one question asks about, one per " of ": "Heeft u koorts of hoest u" → koorts,
/// hoest; "Heeft u koorts of hoofdpijn" → "koorts of hoofdpijn".
fn or_phrases(q: &str) -> Option<Vec<Phrase<'_>>> {
    let mut parts = q.split(" of ");
    let mut out = vec![question_phrase(parts.next()?)?];
    for part in parts {
        let part = part.trim_start_matches([',', ' ']);
        match question_phrase(part) {
            // "of zou u zwanger kunnen zijn": the same question again.
            Some(p) if ["zou", "kunt", "kan", "wilt", "mag", "moet"].contains(&p.verb.to_lowercase().as_str()) => {}
            Some(p) => out.push(p),
            None => {
                // "Heeft u koorts of hoofdpijn": one more thing of the same kind.
                let last = out.last_mut()?;
                let start = last.x.as_ptr() as usize - q.as_ptr() as usize;
                let end = part.as_ptr() as usize - q.as_ptr() as usize + part.len();
                last.x = &q[start..end];
            }
        }
    }
    Some(out)
}

fn question_phrase(q: &str) -> Option<Phrase<'_>> {
    const SUBJECTS: &[&str] = &["u", "je", "ze", "hij", "het", "er"];
    const SOFTENERS: &[&str] =
        // "wel eens" before "wel": "Heb je wel eens wondjes gehad" asks about "wondjes", not "eens wondjes"
        &["ook", "nog", "wel eens", "wel", "al", "weleens", "ooit", "soms", "verder", "daarbij", "nu", "daar", "daarvoor", "dan"];
    let q = q.trim();
    let mut it = q.split_whitespace();
    let verb = it.next()?;
    let subject = it.next()?.to_lowercase();
    if !SUBJECTS.contains(&subject.as_str()) || !verb.chars().all(char::is_alphabetic) {
        return None;
    }
    let lower = verb.to_lowercase();
    let kind = match (lower.as_str(), subject.as_str()) {
        ("is" | "zijn" | "was", "er") => Kind::There,
        ("heeft" | "hebt" | "heb" | "had", _) => Kind::Have,
        ("bent" | "ben" | "is" | "was", _) => Kind::Be,
        (v, _) if ["wat", "hoe", "waar", "wanneer", "welke", "waarom", "hoelang", "wie"].contains(&v) => return None,
        _ => Kind::Verb,
    };
    let after_subject = q[verb.len()..].trim_start();
    let mut x = after_subject[after_subject.find(char::is_whitespace).unwrap_or(after_subject.len())..].trim_start();
    loop {
        let before = x.len();
        for s in SOFTENERS {
            if cues::at_start(x, s) {
                x = x[s.len()..].trim_start();
            }
        }
        if x.len() == before {
            break;
        }
    }
    let words = x.split_whitespace().count();
    let je = matches!(subject.as_str(), "je" | "jij");
    (words <= 12 && (words > 0 || matches!(kind, Kind::Verb))).then_some(Phrase { kind, verb, je, x })
}

/// How the clinician writes, learnt from their SOEP examples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Style {
    /// S as short fragments without "ik heb", separated by `telegram_separator`.
    pub telegram: bool,
    pub telegram_separator: &'static str,
    /// P as "1. ...\n2. ..." lines.
    pub numbered_plan: bool,
    /// P as "- ..." lines.
    pub bulleted_plan: bool,
    /// Sentences of a field on their own lines rather than joined with spaces.
    pub lines: bool,
}

impl Default for Style {
    fn default() -> Self {
        Style { telegram: false, telegram_separator: ", ", numbered_plan: false, bulleted_plan: false, lines: false }
    }
}

impl Style {
    /// The style most of the examples share; the default (plain sentences joined with spaces)
    /// without examples.
    pub(crate) fn learn(examples: &[SoapExample]) -> Style {
        let with_s: Vec<&str> = examples.iter().map(|e| e.subjective.trim()).filter(|s| !s.is_empty()).collect();
        let with_p: Vec<&str> = examples.iter().map(|e| e.plan.trim()).filter(|s| !s.is_empty()).collect();
        let majority = |n: usize, of: usize| of > 0 && 2 * n > of;
        let telegram_n = with_s.iter().filter(|s| is_telegram(s)).count();
        let semicolons = with_s.iter().filter(|s| s.contains(';')).count();
        let numbered = with_p.iter().filter(|p| count_lines(p, is_numbered) >= 1).count();
        let bulleted = with_p.iter().filter(|p| count_lines(p, is_bullet) >= 1).count();
        let fields: Vec<&str> =
            examples.iter().flat_map(|e| [e.subjective.as_str(), e.objective.as_str()]).map(str::trim).filter(|s| !s.is_empty()).collect();
        let multiline = fields.iter().filter(|f| f.lines().count() >= 2).count();
        Style {
            telegram: majority(telegram_n, with_s.len()),
            telegram_separator: if semicolons * 2 >= telegram_n.max(1) { "; " } else { ", " },
            numbered_plan: majority(numbered, with_p.len()),
            bulleted_plan: !majority(numbered, with_p.len()) && majority(bulleted, with_p.len()),
            lines: majority(multiline, fields.len()),
        }
    }

    /// Joins the sentences of one field in this style.
    pub(crate) fn join(&self, texts: &[&str], plan: bool, subjective: bool) -> String {
        if plan && self.numbered_plan {
            return texts.iter().enumerate().map(|(i, t)| format!("{}. {t}", i + 1)).collect::<Vec<_>>().join("\n");
        }
        if plan && self.bulleted_plan {
            return texts.iter().map(|t| format!("- {t}")).collect::<Vec<_>>().join("\n");
        }
        if subjective && self.telegram {
            let mut out = String::new();
            for t in texts {
                let frag = telegram(t);
                if frag.is_empty() {
                    continue;
                }
                if !out.is_empty() {
                    out.push_str(self.telegram_separator);
                    out.push_str(&lower_first(&frag));
                } else {
                    out.push_str(&upper_first(&frag));
                }
            }
            return out;
        }
        texts.join(if self.lines { "\n" } else { " " })
    }
}

/// A sentence as a telegram fragment: first-person opening dropped, no closing full stop.
pub(crate) fn telegram(s: &str) -> String {
    let mut t = s.trim().trim_end_matches(['.', '!']);
    for d in TELEGRAM_DROP {
        if cues::at_start(t, d) {
            let rest = t[d.len()..].trim_start_matches([',', ' ']);
            if rest.split_whitespace().count() >= 1 {
                t = rest;
            }
            break;
        }
    }
    t.to_owned()
}

pub(crate) fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match (c.next(), c.clone().next()) {
        (Some(f), Some(second)) if f.is_uppercase() && !second.is_uppercase() => f.to_lowercase().chain(c).collect(),
        _ => s.to_owned(),
    }
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Telegram S: fragments separated by ';' or short fragments of at most five words on average,
/// without the first person.
fn is_telegram(s: &str) -> bool {
    let frags: Vec<&str> = s.split(['.', ';', '\n', ',']).map(str::trim).filter(|f| !f.is_empty()).collect();
    if frags.is_empty() {
        return false;
    }
    let words: usize = frags.iter().map(|f| f.split_whitespace().count()).sum();
    let short = words <= 5 * frags.len();
    let first_person = cues::has_cue(s, "ik");
    !first_person && (short || s.contains(';'))
}

fn count_lines(s: &str, f: fn(&str) -> bool) -> usize {
    s.lines().filter(|l| f(l.trim_start())).count()
}

fn is_numbered(l: &str) -> bool {
    let digits = l.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && matches!(l.as_bytes().get(digits), Some(b'.' | b')'))
}

fn is_bullet(l: &str) -> bool {
    l.starts_with("- ") || l.starts_with("• ") || l.starts_with("* ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_sentence_of_a_line_opens_with_a_capital() {
        assert_eq!(finish("dan het roken. zei dat patiënt wil stoppen"), "Dan het roken. Zei dat patiënt wil stoppen.");
        assert_eq!(finish("pijn o.a. in de knie, ca. 3 weken"), "Pijn o.a. in de knie, ca. 3 weken.");
        assert_eq!(finish("marian. ijzer slikt ze al"), "Marian. IJzer slikt ze al.");
    }

    #[test]
    fn fillers_and_vocatives_go() {
        assert_eq!(note_text("eh, nou ja, ik heb keelpijn"), "Ik heb keelpijn.");
        assert_eq!(note_text("Dokter, mijn knie is dik, dokter."), "Mijn knie is dik.");
        assert_eq!(note_text("Goed ingesteld"), "Goed ingesteld.");
        assert_eq!(note_text("Dus u heeft al drie dagen koorts"), "Dus u heeft al drie dagen koorts.");
        assert_eq!(note_text("Ik heb eh sinds gisteren eh pijn."), "Ik heb sinds gisteren pijn.");
    }

    #[test]
    fn yes_no_answers_become_notes() {
        assert_eq!(answer_to_note("Heeft u koorts?", "Nee.").as_deref(), Some("Geen koorts."));
        // "wel eens" softens, and the question's "je" after a preposition is the record's article
        assert_eq!(
            answer_to_note("Heb je wel eens wondjes aan je vingertoppen gehad?", "Nee, nooit.").as_deref(),
            Some("Geen wondjes aan de vingertoppen gehad.")
        );
        assert_eq!(answer_to_note("Heb je pijn in je oog?", "Nee.").as_deref(), Some("Geen pijn in het oog."));
        // a denial in a clause of its own says it whole; what it leaves unsaid stays denied before
        // it, a reflexive "je" as "zich", "iets" as "niets"
        assert_eq!(
            answer_to_note("Weet ze het de volgende ochtend nog?", "Nee, ze weet er 's ochtends niets meer van.").as_deref(),
            Some("Ze weet er 's ochtends niets meer van.")
        );
        assert_eq!(
            answer_to_note("Ben je gevallen of heb je je verstapt?", "Nee, ik ben niet gevallen, het kwam vanzelf opzetten.").as_deref(),
            Some("Zich niet verstapt, ik ben niet gevallen, het kwam vanzelf opzetten.")
        );
        assert_eq!(
            answer_to_note("Heeft u gedachten om uzelf iets aan te doen?", "Nee, ik zou mijn kinderen nooit iets aandoen.").as_deref(),
            Some("Geen gedachten om uzelf iets aan te doen, ik zou mijn kinderen nooit iets aandoen.")
        );
        assert_eq!(answer_to_note("Heeft u iets zwaars getild?", "Nee.").as_deref(), Some("Niets zwaars getild."));
        assert_eq!(answer_to_note("Loopt er iets uit je oor?", "Nee.").as_deref(), Some("Loopt niets uit het oor."));
        // several questions after commas, each denied (none left standing as if it were so), and
        // the news after the pointer back kept
        assert_eq!(
            answer_to_note("Bent u kortademig, heeft u pijn op de borst of hoest u bloed op?", "Nee, dat niet, ademen gaat prima.")
                .as_deref(),
            Some("Niet kortademig, geen pijn op de borst, hoest geen bloed op, ademen gaat prima.")
        );
        assert_eq!(answer_to_note("Heeft u pijn, ook 's nachts?", "Nee.").as_deref(), Some("Geen pijn, ook 's nachts."));
        // the question after the "en" that links it on, not a clause it opens
        assert_eq!(
            answer_to_note("En heeft u hem ooit verdraaid, of bent u gevallen?", "Nee.").as_deref(),
            Some("Hem nooit verdraaid, niet gevallen.")
        );
        // the patient's verb, also where "je" asked; a modal and a comparative denied with "niet"
        assert_eq!(answer_to_note("Word je gepest?", "Nee.").as_deref(), Some("Wordt niet gepest."));
        assert_eq!(answer_to_note("Kunt u plat liggen?", "Nee.").as_deref(), Some("Kan niet plat liggen."));
        assert_eq!(answer_to_note("Loopt u langzamer?", "Nee.").as_deref(), Some("Loopt niet langzamer."));
        assert_eq!(answer_to_note("Klaagt hij over hoofdpijn?", "Nee.").as_deref(), Some("Klaagt niet over hoofdpijn."));
        assert_eq!(answer_to_note("Jeukt hij weleens?", "Nee.").as_deref(), Some("Jeukt niet."));
        assert_eq!(answer_to_note("Heeft hij gebloed?", "Nee.").as_deref(), Some("Niet gebloed."));
        assert_eq!(answer_to_note("Jeukt hij weleens, of heeft hij gebloed?", "Nee.").as_deref(), Some("Jeukt niet, niet gebloed."));
        // "nooit" is the answer's own word; a long denial stands alone; a question without its verb
        assert_eq!(answer_to_note("Rookt u?", "Nee, nooit gerookt.").as_deref(), Some("Nooit gerookt."));
        assert_eq!(
            answer_to_note(
                "Heb je migraine, rook je, of komt trombose voor in je familie?",
                "Nee, ik rook niet, ik heb geen migraine, en van trombose in de familie weet ik niks."
            )
            .as_deref(),
            Some("Ik rook niet, ik heb geen migraine, en van trombose in de familie weet ik niks.")
        );
        assert_eq!(answer_to_note("Koorts gehad?", "Nee, helemaal niet.").as_deref(), Some("Geen koorts gehad."));
        assert_eq!(answer_to_note("Koorts?", "Nee, geen koorts, ik voel me prima.").as_deref(), Some("Geen koorts, ik voel me prima."));
        // a denial that does not name what was asked keeps the question's words, without its
        // pointer back ("dat niet")
        assert_eq!(
            answer_to_note("Heeft u gedachten om uzelf of de baby iets aan te doen?", "Nee, dat niet, ik zou Noor nooit iets doen.")
                .as_deref(),
            Some("Geen gedachten om uzelf of de baby iets aan te doen, ik zou Noor nooit iets doen.")
        );
        assert_eq!(answer_to_note("Pijn bij het plassen?", "Ja, een beetje.").as_deref(), Some("Pijn bij het plassen, een beetje."));
        assert_eq!(
            answer_to_note("Heeft u ook last van hoofdpijn?", "Ja, vooral 's avonds.").as_deref(),
            Some("Last van hoofdpijn, vooral 's avonds.")
        );
        assert_eq!(answer_to_note("Bent u misselijk?", "Nee hoor.").as_deref(), Some("Niet misselijk."));
        assert_eq!(answer_to_note("Is er een allergie?", "Nee").as_deref(), Some("Geen allergie."));
        // "niet" where the thing is known, "geen" after what opens the question
        assert_eq!(answer_to_note("Heeft u dit eerder gehad?", "Nee.").as_deref(), Some("Dit niet eerder gehad."));
        assert_eq!(answer_to_note("Heb je dit ooit eerder gehad?", "Nee.").as_deref(), Some("Dit nooit eerder gehad."));
        assert_eq!(answer_to_note("Heeft hij zich ergens gestoten?", "Nee.").as_deref(), Some("Zich niet ergens gestoten."));
        assert_eq!(answer_to_note("Voelt u zich ook somber?", "Nee.").as_deref(), Some("Voelt zich niet somber."));
        assert_eq!(answer_to_note("Moet hij dan geopereerd worden?", "Nee.").as_deref(), Some("Moet niet geopereerd worden."));
        assert_eq!(answer_to_note("Heeft u er 's nachts ook last van?", "Nee.").as_deref(), Some("'s Nachts ook geen last van."));
        assert_eq!(answer_to_note("Heeft u de pols verzwikt?", "Nee.").as_deref(), Some("De pols niet verzwikt."));
        assert_eq!(
            answer_to_note("Heeft u het gevoel dat er een schaduw over uw zicht schuift?", "Nee.").as_deref(),
            Some("Geen gevoel dat er een schaduw over uw zicht schuift.")
        );
        assert_eq!(
            answer_to_note("Heeft u tijdens zo'n aanval ook hoofdpijn of krachtverlies gehad?", "Nee.").as_deref(),
            Some("Tijdens zo'n aanval geen hoofdpijn of krachtverlies gehad.")
        );
        assert_eq!(
            answer_to_note("Huilt ze erbij, of lijkt het haar pijn te doen?", "Nee.").as_deref(),
            Some("Huilt er niet bij, lijkt haar geen pijn te doen.")
        );
        // an answer that denies all that was asked, in its own words, says it once
        assert_eq!(
            answer_to_note(
                "Heeft u pijn op de borst of hartkloppingen gehad?",
                "Nee, pijn op de borst of hartkloppingen heb ik niet gehad."
            )
            .as_deref(),
            Some("Pijn op de borst of hartkloppingen heb ik niet gehad.")
        );
        assert_eq!(answer_to_note("Rookt u?", "Nee.").as_deref(), Some("Rookt niet."));
        assert_eq!(answer_to_note("Hoest u ook?", "Nee, eigenlijk niet.").as_deref(), Some("Geen hoest."));
        assert_eq!(answer_to_note("Slaapt u goed?", "Nee.").as_deref(), Some("Slaapt niet goed."));
        assert_eq!(
            answer_to_note("Bent u misselijk of ziet u dubbel?", "Nee, dat niet.").as_deref(),
            Some("Niet misselijk, ziet niet dubbel.")
        );
        assert_eq!(answer_to_note("Geeft u slijm op?", "Ja, wit slijm, niet geel.").as_deref(), Some("Wit slijm, niet geel."));
        assert_eq!(answer_to_note("Heeft u koorts of pijn in uw zij?", "Nee, geen koorts.").as_deref(), Some("Geen koorts."));
        assert_eq!(answer_to_note("Straalt de pijn uit naar uw been?", "Nee.").as_deref(), Some("Straalt de pijn uit naar been: nee."));
        assert_eq!(answer_to_note("Hoe lang heeft u dit al?", "Drie dagen.").as_deref(), Some("Drie dagen."));
        assert_eq!(answer_to_note("Hoe lang heeft u dit al?", "Oké."), None);
    }

    #[test]
    fn style_is_learnt_from_examples() {
        let telegram = SoapExample {
            subjective: "Keelpijn sinds 3 dgn; geen koorts; hoest.".into(),
            plan: "1. Paracetamol zn\n2. Terug bij koorts".into(),
            ..Default::default()
        };
        let style = Style::learn(&[telegram]);
        assert!(style.telegram && style.numbered_plan && !style.bulleted_plan);
        assert_eq!(style.telegram_separator, "; ");
        let prose = SoapExample {
            subjective: "Patiënte vertelt dat ze sinds drie dagen keelpijn heeft en ik vroeg naar koorts.".into(),
            plan: "- Paracetamol\n- Terug bij koorts".into(),
            ..Default::default()
        };
        let style = Style::learn(&[prose]);
        assert!(!style.telegram && style.bulleted_plan && !style.numbered_plan);
        assert_eq!(Style::learn(&[]), Style::default());
    }

    #[test]
    fn telegram_drops_first_person_openings() {
        assert_eq!(telegram("Ik heb sinds gisteren keelpijn."), "sinds gisteren keelpijn");
        assert_eq!(telegram("Mijn knie is dik."), "knie is dik");
        assert_eq!(telegram("Koorts tot 39 graden."), "Koorts tot 39 graden");
    }
}
