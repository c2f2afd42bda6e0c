//! The ICPC list: search (the same rules as the SPA's), suggestions for a text, and the import
//! of a licensed NHG table.
//!
//! The list the repository ships (`data/icpc/icpc2-nl.json`) is ICPC-2 with Dutch titles of our
//! own; it fills the `icpc_codes` table on first start. `api icpc-import` replaces it with a
//! licensed NHG export.
//!
//! What serves requests and jobs is the [`Catalogue`] of the list in force ([`catalogue`]): the
//! codes with every code's match terms, made once per version of the list and kept in the process.

use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, LazyLock, PoisonError, RwLock};

use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use uuid::Uuid;

use crate::summary::{Episode, EpisodeCode, MAX_EPISODE_CODES};
use crate::text::{normalize, words};

/// Most matches a search or a suggestion returns.
pub const MAX_RESULTS: usize = 10;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct Code {
    /// The chapter letter (`K`), or `-` for the process codes shared by all chapters.
    pub category: String,
    /// Two digits (`86`).
    pub code: String,
    pub patient_title: String,
    pub official_title: String,
}

impl Code {
    /// Category plus code, as templates store it: `K86`.
    pub fn id(&self) -> String {
        format!("{}{}", self.category, self.code)
    }
}

static EMBEDDED: LazyLock<Vec<Code>> =
    LazyLock::new(|| serde_json::from_str(include_str!("../data/icpc/icpc2-nl.json")).expect("the embedded ICPC list parses"));

/// The embedded synonyms as written, per code.
static WRITTEN_SYNONYMS: LazyLock<BTreeMap<String, Vec<String>>> =
    LazyLock::new(|| serde_json::from_str(include_str!("../data/icpc/synonyms-nl.json")).expect("the embedded synonym list parses"));

static SYNONYMS: LazyLock<BTreeMap<String, Vec<String>>> = LazyLock::new(|| {
    WRITTEN_SYNONYMS.iter().map(|(code, terms)| (code.clone(), terms.iter().map(|t| synonym_form(t)).collect())).collect()
});

/// The embedded synonyms of the diagnoses (rubrics 70 to 99 of every chapter), as written
/// ("longontsteking", "ziekte van pfeiffer"): the words a clinician names a diagnosis with.
pub fn diagnosis_synonyms() -> impl Iterator<Item = &'static str> {
    WRITTEN_SYNONYMS
        .iter()
        .filter(|(code, _)| code.get(1..).and_then(|n| n.parse::<u8>().ok()).is_some_and(|n| n >= 70))
        .flat_map(|(_, terms)| terms.iter().map(String::as_str))
}

/// Text as [`Catalogue::predict`] compares it: normalised, punctuation as spaces
/// (`gastro-enteritis` and `gastro enteritis` are the same phrase, `cariës` is `caries`).
fn phrase_form(s: &str) -> String {
    normalize(&s.replace(|c: char| !c.is_alphanumeric(), " "))
}

/// The list the repository ships.
pub fn embedded() -> &'static [Code] {
    &EMBEDDED
}

/// Fills `icpc_codes` from the embedded list when it is empty.
pub async fn seed_if_empty(db: &PgPool) -> sqlx::Result<()> {
    let empty: bool = sqlx::query_scalar!(r#"select not exists(select 1 from icpc_codes) as "empty!""#).fetch_one(db).await?;
    if empty {
        let mut tx = db.begin().await?;
        replace(&mut tx, embedded()).await?;
        tx.commit().await?;
    }
    Ok(())
}

async fn replace(conn: &mut sqlx::PgConnection, codes: &[Code]) -> sqlx::Result<()> {
    sqlx::query!("delete from icpc_codes").execute(&mut *conn).await?;
    let categories: Vec<&str> = codes.iter().map(|c| c.category.as_str()).collect();
    let numbers: Vec<&str> = codes.iter().map(|c| c.code.as_str()).collect();
    let patient: Vec<&str> = codes.iter().map(|c| c.patient_title.as_str()).collect();
    let official: Vec<&str> = codes.iter().map(|c| c.official_title.as_str()).collect();
    let positions: Vec<i32> = (0..codes.len() as i32).collect();
    sqlx::query!(
        "insert into icpc_codes (category, code, patient_title, official_title, position)
         select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[])",
        &categories as _,
        &numbers as _,
        &patient as _,
        &official as _,
        &positions,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The list in force, in its order.
pub async fn list(db: &PgPool) -> sqlx::Result<Vec<Code>> {
    sqlx::query_as!(Code, "select category, code, patient_title, official_title from icpc_codes order by position").fetch_all(db).await
}

/// The version of the list in force: a new random value whenever `icpc_codes` changes, in the same
/// transaction (a trigger of its own), so no two databases share one.
pub async fn version(db: &PgPool) -> sqlx::Result<Uuid> {
    sqlx::query_scalar!("select version from icpc_list_version").fetch_one(db).await
}

/// A list of codes with every code's match terms made once, for [`Catalogue::predict`] and
/// [`Catalogue::code_episodes`] to score texts against without making them again.
#[derive(Debug)]
pub struct Catalogue {
    /// The list's [`version`] when it was read (nil for a catalogue made from codes at hand).
    version: Uuid,
    codes: Vec<Code>,
    terms: Vec<Terms>,
}

impl Catalogue {
    pub fn new(codes: Vec<Code>) -> Self {
        Self::of_version(Uuid::nil(), codes)
    }

    fn of_version(version: Uuid, codes: Vec<Code>) -> Self {
        let terms = Terms::of_all(&codes);
        Self { version, codes, terms }
    }

    /// The codes, in list order.
    pub fn codes(&self) -> &[Code] {
        &self.codes
    }

    /// The list's version this catalogue was made from.
    pub fn version(&self) -> Uuid {
        self.version
    }

    /// Ranked ICPC suggestions for a text (an episode's S and E, say): see [`Terms::score`];
    /// process codes are not suggested.
    pub fn predict(&self, text: &str) -> Vec<Suggestion<'_>> {
        let text = Haystack::new(text);
        let mut suggestions: Vec<Suggestion<'_>> = self
            .terms
            .iter()
            .filter_map(|t| {
                let score = t.score(&text);
                (score > 0.0).then_some(Suggestion { code: &self.codes[t.index], score })
            })
            .collect();
        suggestions.sort_by(|a, b| b.score.total_cmp(&a.score));
        suggestions.truncate(MAX_RESULTS);
        suggestions
    }

    /// Suggests up to [`MAX_EPISODE_CODES`] codes for each episode of a SOEP note, replacing what
    /// it had. An episode's evaluation (E, the clinician's assessment) counts double, its
    /// subjective (S) once; a code must reach [`EPISODE_CODE_FLOOR`] and be mentioned in at least
    /// one sentence of the `transcript`, which become its evidence (the most telling first, at
    /// most [`MAX_EVIDENCE`]). Process codes are never suggested.
    pub fn code_episodes(&self, episodes: &mut [Episode], transcript: &[&str]) {
        let sentences: Vec<Haystack> = transcript.iter().map(|s| Haystack::new(s)).collect();
        // the chapters of the other sex's genitals (and pregnancy, for a man) go last: chlamydia in
        // a man is no X92
        let other_sex: &[&str] = match sex_of(transcript) {
            Some(Sex::Male) => &["X", "W"],
            Some(Sex::Female) => &["Y"],
            None => &[],
        };
        for episode in episodes.iter_mut() {
            let (evaluation, subjective) = (Haystack::new(&episode.diagnosis), Haystack::new(&episode.subjective));
            // Each candidate scored once: its score, whether E names it as a diagnosis, and the
            // synonyms and titles E and S mention of it.
            let mut ranked: Vec<(f64, u8, Vec<&str>, &Terms)> = self
                .terms
                .iter()
                .filter_map(|t| {
                    let in_evaluation = t.score(&evaluation);
                    let score = 2.0 * in_evaluation + t.score(&subjective);
                    (score >= EPISODE_CODE_FLOOR).then(|| {
                        // 3: a diagnosis the assessment names as its conclusion ("past bij een
                        // TIA"), 2: one it names, or a complaint's code it concludes ("past goed
                        // bij slaapapneu": P06), 1: another code it names
                        let assessed = in_evaluation > 0.0;
                        // named: a synonym or title of it, not only some of its title's words
                        // ("Steenpuist in de neus", R73, is not named by "steenpuist")
                        let diagnosis =
                            assessed && component(&self.codes[t.index]) == Component::Diagnosis && t.matched(&evaluation).next().is_some();
                        let concluded = assessed && t.phrases.iter().any(|p| evaluation.concludes(p));
                        let rank = u8::from(assessed) + u8::from(diagnosis || concluded) + u8::from(diagnosis && concluded);
                        (score, rank, t.matched(&evaluation).chain(t.matched(&subjective)).collect(), t)
                    })
                })
                .collect();
            // The diagnosis the clinician named comes first, then what else the assessment names
            // ("overspannen", a complaint's code: the clinician's word for the problem), then the
            // rest by score.
            // (of two alike, the one the assessment names first: "Het was dus een jichtaanval, …
            // net als overgewicht" is T92 before T83)
            let assessment = normalize(&episode.diagnosis);
            let first_named = |mine: &[&str]| mine.iter().filter_map(|p| assessment.find(&normalize(p))).min().unwrap_or(usize::MAX);
            ranked.sort_by(|a, b| b.1.cmp(&a.1).then(b.0.total_cmp(&a.0)).then(first_named(&a.2).cmp(&first_named(&b.2))));
            // A code whose every mention lies within a more specific phrase of another code of
            // the same chapter that the text names is that one, wherever it ranked: "artrose"
            // within "artrose+knie" (L91 within L90), within the compound "heupartrose" and, where
            // the hip's arthrosis is named, "slijtage" within "slijtage heup" (L91 within L89).
            // (a compound only where the text names it: "hypertensie" is not within the list's
            // "wittejassenhypertensie"; nor is it within a title that says more around it, "…
            // zonder vastgestelde hypertensie": a listed phrase counts up to three words)
            let words_within = |phrase: &str, wider: &str, compound: bool| {
                wider.len() > phrase.len()
                    && phrase_words(phrase)
                        .all(|w| phrase_words(wider).any(|v| v == w || (compound && v.len() > w.len() + 2 && v.ends_with(w))))
            };
            let within = |mine: &[&str], listed: &[String], named: &[&str]| {
                !mine.is_empty()
                    && mine.iter().all(|phrase| {
                        listed.iter().any(|wider| phrase_words(wider).count() <= 3 && words_within(phrase, wider, false))
                            || named.iter().any(|wider| words_within(phrase, wider, true))
                    })
            };
            let mut kept: Vec<(f64, &Terms)> = ranked
                .iter()
                .filter(|(_, _, mine, t)| {
                    !ranked.iter().any(|(_, _, named, other)| {
                        other.index != t.index
                            && !named.is_empty()
                            && self.codes[other.index].category == self.codes[t.index].category
                            && within(mine, &other.phrases, named)
                    })
                })
                .map(|(score, _, _, t)| (*score, *t))
                .collect();
            // A code that says more of the same finding replaces the lesser one.
            let present: Vec<String> = kept.iter().map(|(_, t)| self.codes[t.index].id()).collect();
            kept.retain(|(_, t)| {
                let id = self.codes[t.index].id();
                !SUPERSEDED.iter().any(|(wider, lesser)| *lesser == id && present.iter().any(|p| p == wider))
            });
            // "No disease" (A97) says nothing beside a code that names a problem.
            if kept.len() > 1 {
                kept.retain(|(_, t)| !(self.codes[t.index].category == "A" && self.codes[t.index].code == "97"));
            }
            // Beside a diagnosis, at most one symptom code.
            let diagnosed = kept.iter().any(|(_, t)| component(&self.codes[t.index]) == Component::Diagnosis);
            let mut symptoms = 0;
            kept.retain(|(_, t)| {
                if !diagnosed || component(&self.codes[t.index]) != Component::Symptom {
                    return true;
                }
                symptoms += 1;
                symptoms <= 1
            });
            kept.sort_by_key(|(_, t)| other_sex.contains(&self.codes[t.index].category.as_str()));
            // A pregnancy beside a diagnosis is its circumstance, not the problem: a pregnant
            // woman's cystitis is U71 first, W78 after it.
            let other_diagnosis =
                kept.iter().any(|(_, t)| component(&self.codes[t.index]) == Component::Diagnosis && self.codes[t.index].id() != "W78");
            if other_diagnosis {
                kept.sort_by_key(|(_, t)| self.codes[t.index].id() == "W78");
            }
            // "Andere virusziekte" (A77) is the list's rest for a virus that no other code names: a
            // virus of the airways, the skin or the liver is that organ's code first ("past bij
            // bronchiolitis, een virusinfectie van de kleine luchtwegen" is R78 before A77)
            if kept.len() > 1 {
                kept.sort_by_key(|(_, t)| self.codes[t.index].id() == "A77");
            }
            episode.codes = kept
                .into_iter()
                .filter_map(|(_, t)| {
                    let mut support: Vec<(f64, usize)> =
                        sentences.iter().enumerate().map(|(i, s)| (t.score(s), i)).filter(|(score, _)| *score > 0.0).collect();
                    if support.is_empty() {
                        return None;
                    }
                    support.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
                    support.truncate(MAX_EVIDENCE);
                    support.sort_by_key(|(_, i)| *i);
                    let code = &self.codes[t.index];
                    Some(EpisodeCode {
                        code: code.id(),
                        title: code.patient_title.clone(),
                        evidence: support.into_iter().map(|(_, i)| transcript[i].trim().to_owned()).collect(),
                        accepted: false,
                    })
                })
                .take(MAX_EPISODE_CODES)
                .collect();
        }
    }
}

/// The [`Catalogue`] of the list in force, kept between calls: each call reads the list's
/// [`version`] (one row) and makes the catalogue again only when it changed, so an import by
/// another process (`api icpc-import`) counts from the next call on.
#[derive(Debug, Default)]
pub struct CatalogueCache {
    current: RwLock<Option<Arc<Catalogue>>>,
}

impl CatalogueCache {
    pub const fn new() -> Self {
        Self { current: RwLock::new(None) }
    }

    pub async fn get(&self, db: &PgPool) -> sqlx::Result<Arc<Catalogue>> {
        let version = version(db).await?;
        if let Some(current) = self.current.read().unwrap_or_else(PoisonError::into_inner).as_ref()
            && current.version == version
        {
            return Ok(current.clone());
        }
        // Read after the version, the list is at least that new: a change in between makes the
        // next call read it again, never keeps an older list under a newer version.
        let catalogue = Arc::new(Catalogue::of_version(version, list(db).await?));
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = Some(catalogue.clone());
        Ok(catalogue)
    }
}

/// The process's catalogue cache: the api's routes and the worker's jobs share it.
static CATALOGUE: CatalogueCache = CatalogueCache::new();

/// The [`Catalogue`] of the list in force in `db`, from the process's cache (see
/// [`CatalogueCache`]).
pub async fn catalogue(db: &PgPool) -> sqlx::Result<Arc<Catalogue>> {
    CATALOGUE.get(db).await
}

/// Which of `ids` (`K86`) are not in the list in force.
pub async fn unknown(db: &PgPool, ids: &[String]) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(
        r#"select id as "id!" from unnest($1::text[]) as t(id)
          where not exists (select 1 from icpc_codes c where c.category || c.code = t.id)"#,
        ids,
    )
    .fetch_all(db)
    .await
}

/// Search as the SPA does it (`web/src/features/icpc/search.ts`):
/// - a category letter followed by nothing or by digits (`K`, `k8`, `K86`) finds the codes of
///   that chapter whose number starts with the digits;
/// - otherwise every typed word must occur in the code (`K86`), the patient title or the official
///   title, case and accents aside.
///
/// At most [`MAX_RESULTS`], in list order.
pub fn search<'a>(codes: &'a [Code], query: &str) -> Vec<&'a Code> {
    let query = query.trim();
    if query.is_empty() {
        return Vec::new();
    }
    let mut chars = query.chars();
    let first = chars.next().expect("not empty");
    let digits: String = chars.collect();
    if first.is_ascii_alphabetic() && digits.len() <= 2 && digits.chars().all(|c| c.is_ascii_digit()) {
        let category = first.to_ascii_uppercase().to_string();
        return codes.iter().filter(|c| c.category == category && c.code.starts_with(&digits)).take(MAX_RESULTS).collect();
    }
    let wanted = words(query);
    codes
        .iter()
        .filter(|c| {
            let haystack = normalize(&format!("{} {} {}", c.id(), c.patient_title, c.official_title));
            wanted.iter().all(|w| haystack.contains(w.as_str()))
        })
        .take(MAX_RESULTS)
        .collect()
}

/// A suggested code for a text, with how strongly the text points to it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Suggestion<'a> {
    pub code: &'a Code,
    pub score: f64,
}

/// Words too common in titles to point anywhere.
const STOP_WORDS: [&str; 24] = [
    "andere",
    "ander",
    "anders",
    "klachten",
    "klacht",
    "symptomen",
    "symptoom",
    "van",
    "het",
    "een",
    "met",
    "zonder",
    "niet",
    "door",
    "bij",
    "voor",
    "ziekte",
    "aandoening",
    "aandoeningen",
    "overige",
    "gespecificeerd",
    "verschijnselen",
    "problemen",
    "probleem",
];

/// Words that deny what follows them in the same clause: "geen koorts" is not a fever, nor is
/// "geen aanwijzingen voor een hernia" a hernia.
const NEGATIONS: [&str; 5] = ["geen", "niet", "zonder", "nooit", "ontkent"];

/// Words that, shortly after a phrase in its clause, deny it: "fractuur uitgesloten", "dat wil ik
/// uitsluiten"; or make it a possibility rather than what the patient has: "dit middel kan een
/// hypo geven", "om een beroerte te voorkomen". So does "is (het) niet" right after it: "een
/// longontsteking is het niet".
const DENIED_AFTER: [&str; 6] = ["uitgesloten", "uitsluiten", "onwaarschijnlijk", "geven", "veroorzaken", "voorkomen"];

/// Words before "op" that make what follows a risk or what is tested for rather than what the
/// patient has ("kans op", "risico op", "test de urine op chlamydia"): an "op" among the three
/// words before a phrase, one of these among the two before it.
const RISK_WORDS: [&str; 6] = ["kans", "risico", "verhoogd", "test", "testen", "onderzoek"];

/// Words after "is niet" that qualify rather than deny: "astma is niet goed onder controle" is
/// asthma; "een longontsteking is het niet", "is niet waarschijnlijk" are not.
const NOT_QUALIFIERS: [&str; 8] = ["goed", "onder", "stabiel", "voldoende", "optimaal", "meer", "helemaal", "altijd"];

/// Relatives whose illness a sentence may tell ("moeder had ook een beroerte"): with one of
/// [`RELATIVE_VERBS`] right after, the sentence is the relative's history, not the patient's
/// (unless it says whose account it is: "volgens moeder heeft ze koorts").
const RELATIVES: [&str; 15] = [
    "moeder",
    "vader",
    "broer",
    "zus",
    "zuster",
    "oma",
    "opa",
    "tante",
    "oom",
    "ouders",
    "familie",
    "familieleden",
    "grootmoeder",
    "grootvader",
    "schoonmoeder",
];

/// See [`RELATIVES`].
const RELATIVE_VERBS: [&str; 10] = ["had", "heeft", "hadden", "hebben", "kreeg", "kregen", "overleed", "overleden", "met", "gehad"];

/// The past of [`RELATIVE_VERBS`]: a relative's history is told in it.
const PAST: [&str; 7] = ["had", "hadden", "kreeg", "kregen", "overleed", "overleden", "gehad"];

/// Whether a sentence tells a relative's illness rather than the patient's (see [`RELATIVES`]).
fn tells_a_relative(sentence: &str) -> bool {
    let words: Vec<String> = sentence.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
    words.iter().enumerate().any(|(i, w)| {
        RELATIVES.contains(&w.as_str())
            // the verb right after ("moeder had") or right before in the past ("heeft mijn vader
            // … gehad"; "waarschijnlijk heeft vader een blaasontsteking" is the patient's, said
            // to a carer)
            && (words[i + 1..].iter().take(2).any(|n| RELATIVE_VERBS.contains(&n.as_str()))
                || (words[..i].iter().rev().take(2).any(|p| RELATIVE_VERBS.contains(&p.as_str()))
                    && words.iter().any(|w| PAST.contains(&w.as_str()))))
            && !words[..i].iter().rev().take(2).any(|p| matches!(p.as_str(), "volgens" | "via" | "zegt"))
    })
}

/// `clause` with a compound of "klachten" written apart ("refluxklachten" → "reflux klachten",
/// "plasklachten" → "plas klachten"), so the complaint's own word is found.
fn complaints_apart(clause: String) -> String {
    if !clause.contains("klachten") {
        return clause;
    }
    clause
        .split(' ')
        .map(|w| match w.strip_suffix("klachten") {
            Some(stem) if stem.chars().count() >= 3 => format!("{stem} klachten"),
            _ => w.to_owned(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// How many words before a phrase a negation reaches within its clause: "geen aanwijzingen voor
/// ritmestoornis zoals boezemfibrilleren" (function words already gone) denies the last.
const NEGATION_REACH: usize = 6;

/// Words that end a negation's reach: "geen hoest maar wel koorts".
const CLAUSE_TURNS: [&str; 3] = ["maar", "wel", "behalve"];

/// Articles, possessives and prepositions, left out on both sides of a match, so "artrose van de
/// knie" is "artrose knie" and "pijn in het hoofd" is "pijn in hoofd" wherever it is written.
const FUNCTION_WORDS: [&str; 10] = ["de", "het", "een", "van", "mijn", "uw", "zijn", "haar", "hun", "je"];

/// A phrase as [`Haystack::mentions`] looks for it: phrase form without [`FUNCTION_WORDS`], a
/// compound of "klachten" written apart ([`complaints_apart`]).
fn match_form(s: &str) -> String {
    complaints_apart(
        phrase_form(s).split(' ').filter(|w| !w.is_empty() && !FUNCTION_WORDS.contains(w)).map(without_side).collect::<Vec<_>>().join(" "),
    )
}

/// A body site without the side it is named with: "linkerheup" is the "heup", "rechterknie" the
/// "knie" (the side is the note's, the code is the site's).
fn without_side(w: &str) -> &str {
    ["linker", "rechter"].iter().find_map(|side| w.strip_prefix(side).filter(|site| site.chars().count() >= 3)).unwrap_or(w)
}

/// A synonym in [`match_form`]; a synonym of parts joined by `+` ("artrose+knie") matches where
/// every part occurs in one clause, in any order ("artrose in de linkerknie", "de knie toont
/// artrose"), and keeps its `+`.
fn synonym_form(s: &str) -> String {
    s.split('+').map(match_form).filter(|part| !part.is_empty()).collect::<Vec<_>>().join("+")
}

/// How specific a phrase is: one for a single word, a quarter more for each further word or part
/// ("artrose+knie" outweighs "artrose", so a body site's own code wins over the generic one).
fn weight(phrase: &str) -> f64 {
    let words = phrase.split(['+', ' ']).filter(|w| !w.is_empty()).count();
    1.0 + 0.25 * words.saturating_sub(1) as f64
}

/// The words of a phrase, whatever joins them.
fn phrase_words(phrase: &str) -> impl Iterator<Item = &str> {
    phrase.split(['+', ' ']).filter(|w| !w.is_empty())
}

/// A text as [`Catalogue::predict`] searches it: each clause in [`match_form`] between `|`
/// marks, so a phrase never runs across clauses and a negation reaches no further than its own;
/// and the set of its words, which rules out most phrases without searching the text.
struct Haystack {
    text: String,
    words: HashSet<String>,
}

impl Haystack {
    fn new(text: &str) -> Self {
        let clauses: Vec<String> = text
            .split(['.', '!', '?', '\n'])
            .filter(|sentence| !tells_a_relative(sentence))
            .flat_map(|sentence| sentence.split([',', ';', ':']))
            .map(match_form)
            .filter(|c| !c.is_empty())
            .collect();
        let text = format!(" | {} | ", clauses.join(" | "));
        let words = text.split(' ').filter(|w| !w.is_empty()).map(str::to_owned).collect();
        Self { text, words }
    }

    /// Whether the text names `phrase` (in [`match_form`], one part) as its conclusion: right
    /// after "past bij", "waarschijnlijk", "denk aan", "diagnose" and the like ("dit past bij een
    /// TIA", "waarschijnlijk een niersteen").
    fn concludes(&self, phrase: &str) -> bool {
        !phrase.contains('+')
            && self.occurrences(phrase).any(|at| {
                // one word may stand between ("waarschijnlijk flinke keelontsteking")
                let before: Vec<&str> = self.text[..at].split(' ').rev().filter(|w| !w.is_empty()).take(3).collect();
                match before.as_slice() {
                    [last, ..] if CONCLUDING.contains(last) => true,
                    [_, next, ..] if CONCLUDING.contains(next) => true,
                    // a pair with one word between: "past goed bij slaapapneu"
                    [last, _, first] if CONCLUDING_PAIRS.contains(&(*first, *last)) => true,
                    [last, first, ..] => CONCLUDING_PAIRS.contains(&(*first, *last)),
                    _ => false,
                }
            })
    }

    /// Whether `phrase` (in [`match_form`]) occurs with at least one occurrence its clause does
    /// not deny: by one of the [`NEGATION_REACH`] words before it, or by "is niet", "uitgesloten" or
    /// "onwaarschijnlijk" among the three after it.
    fn mentions(&self, phrase: &str) -> bool {
        // a phrase occurs only where each of its words does
        if phrase.is_empty() || !phrase_words(phrase).all(|w| self.words.contains(w)) {
            return false;
        }
        if phrase.contains('+') {
            return self.text.split(" | ").map(str::trim).filter(|c| !c.is_empty()).any(|clause| {
                let clause = Haystack::new(clause);
                phrase.split('+').all(|part| clause.mentions(part))
            });
        }
        self.occurrences(phrase).any(|start| {
            let reach: Vec<&str> = self.text[..start]
                .split(' ')
                .rev()
                .filter(|w| !w.is_empty())
                .take(NEGATION_REACH)
                .take_while(|w| *w != "|" && !CLAUSE_TURNS.contains(w))
                .collect();
            // a risk is no diagnosis, nor what is tested for: "de kans op een herseninfarct is
            // verhoogd", "ik test je urine op chlamydia en gonorroe"
            let risk = reach
                .iter()
                .take(3)
                .position(|w| *w == "op")
                .is_some_and(|k| reach[k + 1..].iter().take(2).any(|w| RISK_WORDS.contains(w)));
            // the general case is no diagnosis either: "bij een beroerte blijft het voorhoofd
            // gespaard" (the clause opens with it; "een" already gone)
            let general = reach.len() == 1 && reach[0] == "bij" && self.text[..start].trim_end().ends_with("| bij");
            // nor what a finding may point to: "het kan een teken zijn van een poliep", "kan wijzen
            // op een tumor" ("een", "zijn" and "van" already gone)
            let possible = reach.iter().take(3).any(|w| matches!(*w, "kan" | "kunnen"))
                && reach.iter().take(2).any(|w| matches!(*w, "teken" | "wijzen"));
            // nor what a vaccination protects against: "dan bent u beschermd tegen tetanus"
            let protected = reach.first() == Some(&"tegen")
                && reach
                    .iter()
                    .take(3)
                    .any(|w| matches!(*w, "beschermd" | "beschermt" | "bescherming" | "vaccinatie" | "prik" | "inenting"));
            // nor what a condition supposes: "als het zwanger worden na een jaar niet lukt", "als
            // hij benauwd wordt, belt u" (the clause opens with it, not a turn before it: "maar als
            // …" is left counted; "als kind" tells the past)
            let conditional = reach.len() < NEGATION_REACH
                && reach.last().is_some_and(|w| matches!(*w, "als" | "wanneer" | "mocht" | "indien"))
                && reach.len().checked_sub(2).is_none_or(|k| !matches!(reach[k], "kind" | "baby" | "tiener" | "puber"))
                && self.text[..start].trim_end().rsplit(" | ").next().is_some_and(|clause| {
                    clause
                        .trim_start()
                        .trim_start_matches("| ")
                        .split(' ')
                        .find(|w| !w.is_empty())
                        .is_some_and(|w| matches!(w, "als" | "wanneer" | "mocht" | "indien"))
                });
            let before = risk || general || possible || protected || conditional || reach.iter().any(|w| NEGATIONS.contains(w));
            let after: Vec<&str> =
                self.text[start + phrase.len() + 1..].split(' ').filter(|w| !w.is_empty()).take(3).take_while(|w| *w != "|").collect();
            let denied_after = match after.as_slice() {
                ["is", "niet", next, ..] => !NOT_QUALIFIERS.contains(next),
                ["is", "niet"] | ["is", "het", "niet"] => true,
                // "aan een depressie niet, want …", "aan een depressie denk ik niet"
                ["niet"] | ["denk", "ik", "niet"] => true,
                // "een beroerte past hier niet bij"
                ["past", rest @ ..] => rest.contains(&"niet"),
                words => words.iter().any(|w| DENIED_AFTER.contains(w)),
            };
            !before && !denied_after
        })
    }

    /// Where `phrase` (in [`match_form`], one part) stands in the text: the offset of each
    /// occurrence, the space before it included; none at all where one of its words is missing.
    fn occurrences<'a>(&'a self, phrase: &str) -> impl Iterator<Item = usize> + 'a {
        let present = !phrase.is_empty() && phrase_words(phrase).all(|w| self.words.contains(w));
        let needle = format!(" {phrase} ");
        let mut from = 0;
        std::iter::from_fn(move || {
            let at = from + self.text[from..].find(&needle).filter(|_| present)?;
            from = at + 1;
            Some(at)
        })
    }
}

/// Words after which an assessment names its conclusion ([`Haystack::concludes`]; "Noor heeft een
/// bacteriële bindvliesontsteking").
const CONCLUDING: [&str; 7] = ["waarschijnlijk", "vermoedelijk", "diagnose", "werkdiagnose", "verdenking", "heeft", "betekent"];

/// Word pairs after which an assessment names its conclusion (function words already gone: "dit
/// is een TIA" is "dit is tia").
const CONCLUDING_PAIRS: [(&str, &str); 6] =
    [("past", "bij"), ("denk", "aan"), ("lijkt", "op"), ("dit", "is"), ("dat", "is"), ("wijst", "op")];

/// Pairs of codes where the first, when suggested, leaves no room for the second: a blood
/// pressure called too high is K85, but where hypertension is named it is K86.
const SUPERSEDED: [(&str, &str); 3] = [
    ("K86", "K85"),
    // an anaemia named by its cause ("B12-tekort", "ijzergebrek") is the anaemia
    ("B80", "B82"),
    ("B81", "B82"),
];

/// The part of a chapter a code belongs to: symptoms and complaints (01 to 29) or diagnoses
/// (70 to 99: infections, neoplasms, injuries, congenital and other diseases).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Component {
    Symptom,
    Diagnosis,
    Other,
}

fn component(code: &Code) -> Component {
    match code.code.parse::<u8>() {
        Ok(1..=29) if code.category != "-" => Component::Symptom,
        Ok(70..=99) if code.category != "-" => Component::Diagnosis,
        _ => Component::Other,
    }
}

/// Whether a code is never suggested: a process code (`-30` to `-69`, or a chapter's 30 to 69),
/// or A96 (death), which no note of a consult codes ("gedachten aan de dood" is not it).
fn is_process_code(code: &Code) -> bool {
    code.category == "-" || code.code.parse::<u8>().is_ok_and(|n| (30..=69).contains(&n)) || (code.category == "A" && code.code == "96")
}

/// What of a code a text can mention, in [`match_form`]: its synonyms and titles, and its telling
/// title words. Made once per code for all the texts scored against one list (a [`Catalogue`]'s
/// lifetime).
#[derive(Debug)]
struct Terms {
    /// The code's place in its list.
    index: usize,
    phrases: Vec<String>,
    words: Vec<String>,
}

impl Terms {
    /// The terms of every code that may be suggested (process codes never are).
    fn of_all(codes: &[Code]) -> Vec<Terms> {
        codes.iter().enumerate().filter(|(_, c)| !is_process_code(c)).map(|(index, code)| Terms::of(index, code)).collect()
    }

    fn of(index: usize, code: &Code) -> Self {
        let mut phrases: Vec<String> = SYNONYMS.get(&code.id()).cloned().unwrap_or_default();
        phrases.extend([&code.patient_title, &code.official_title].map(|t| match_form(t)));
        let titles = match_form(&format!("{} {}", code.patient_title, code.official_title));
        let mut words: Vec<String> =
            titles.split(' ').filter(|w| w.chars().count() >= 5 && !STOP_WORDS.contains(w)).map(str::to_owned).collect();
        words.sort_unstable();
        words.dedup();
        Self { index, phrases, words }
    }

    /// How strongly `text` points to the code: a synonym or a whole title found counts its
    /// [`weight`] (1 for one word, more for a longer, more specific one), each telling title word
    /// 0.25; what the text denies ("geen koorts") does not count.
    fn score(&self, text: &Haystack) -> f64 {
        let phrases: f64 = self.matched(text).map(weight).sum();
        let words = self.words.iter().filter(|w| text.mentions(w)).count();
        phrases + 0.25 * words as f64
    }

    /// The synonyms and titles `text` mentions.
    fn matched<'a>(&'a self, text: &'a Haystack) -> impl Iterator<Item = &'a str> {
        self.phrases.iter().filter(|p| text.mentions(p)).map(String::as_str)
    }
}

/// The patient's sex, as far as a consult shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sex {
    Male,
    Female,
}

/// Words that show a man: how he is addressed and his anatomy.
const MALE_WORDS: &[&str] = &["meneer", "penis", "zaadbal", "zaadballen", "balzak", "prostaat", "voorhuid"];

/// Words that show a woman: how she is addressed and her anatomy.
const FEMALE_WORDS: &[&str] = &["mevrouw", "vagina", "baarmoeder", "eierstok", "eierstokken", "ongesteld", "menstruatie", "borstvoeding"];

/// The patient's sex where the transcript shows only one: "meneer" or his anatomy, "mevrouw" or
/// hers; `None` where it shows both (a mother about her son's testicle) or neither.
fn sex_of(transcript: &[&str]) -> Option<Sex> {
    let shows =
        |list: &[&str]| transcript.iter().any(|line| normalize(line).split(|c: char| !c.is_alphanumeric()).any(|w| list.contains(&w)));
    match (shows(MALE_WORDS), shows(FEMALE_WORDS)) {
        (true, false) => Some(Sex::Male),
        (false, true) => Some(Sex::Female),
        _ => None,
    }
}

/// The least [`Catalogue::code_episodes`] asks of a code: one synonym or title in S, or half of
/// that in E.
const EPISODE_CODE_FLOOR: f64 = 1.0;

/// Most transcript sentences kept as one code's evidence.
const MAX_EVIDENCE: usize = 3;

/// Reads a licensed table export: one code per line, `code;patient title;official title` (or
/// comma-separated, quoted where needed), a header line allowed. The code is a chapter letter and
/// two digits (`K86`), or `-30` for a process code.
pub fn parse_import(text: &str) -> Result<Vec<Code>, String> {
    let mut codes = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_start_matches('\u{feff}').trim();
        if line.is_empty() {
            continue;
        }
        let separator = if line.contains(';') { ';' } else { ',' };
        let fields = split_fields(line, separator);
        if fields.len() < 3 {
            return Err(format!("regel {}: drie velden verwacht (code, patiënttitel, officiële titel)", n + 1));
        }
        let id = fields[0].trim().to_ascii_uppercase();
        let mut chars = id.chars();
        let category = chars.next().unwrap_or(' ');
        let number: String = chars.collect();
        let valid = (category.is_ascii_uppercase() || category == '-') && number.len() == 2 && number.chars().all(|c| c.is_ascii_digit());
        if !valid {
            if n == 0 {
                continue; // a header
            }
            return Err(format!("regel {}: {:?} is geen ICPC-code", n + 1, fields[0]));
        }
        codes.push(Code {
            category: category.to_string(),
            code: number,
            patient_title: fields[1].trim().to_owned(),
            official_title: fields[2].trim().to_owned(),
        });
    }
    if codes.is_empty() {
        return Err("het bestand bevat geen codes".to_owned());
    }
    Ok(codes)
}

fn split_fields(line: &str, separator: char) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().expect("one field").push('"');
            }
            '"' => quoted = !quoted,
            c if c == separator && !quoted => fields.push(String::new()),
            c => fields.last_mut().expect("one field").push(c),
        }
    }
    fields
}

/// Replaces the list in force with `codes`.
pub async fn import(db: &PgPool, codes: &[Code]) -> sqlx::Result<()> {
    let mut tx = db.begin().await?;
    replace(&mut tx, codes).await?;
    tx.commit().await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The embedded list's catalogue, made once for the tests.
    static EMBEDDED_CATALOGUE: LazyLock<Catalogue> = LazyLock::new(|| Catalogue::new(embedded().to_vec()));

    #[test]
    fn the_sex_the_consult_shows_puts_the_other_sexs_genital_codes_last() {
        assert_eq!(sex_of(&["Goedemiddag meneer Jansen.", "Het brandt bij het plassen."]), Some(Sex::Male));
        assert_eq!(sex_of(&["Dag mevrouw, ik ben al een week niet ongesteld."]), Some(Sex::Female));
        // a mother about her son's testicle shows both
        assert_eq!(sex_of(&["Dag mevrouw.", "Zijn zaadbal is dik."]), None);
        let mut episodes = vec![Episode {
            subjective: "Branderig plassen en afscheiding.".to_owned(),
            diagnosis: "Waarschijnlijk een chlamydia-infectie of gonorroe.".to_owned(),
            ..Default::default()
        }];
        let transcript = ["Goedemiddag meneer.", "Het brandt en er komt wat uit mijn penis.", "Waarschijnlijk chlamydia of gonorroe."];
        EMBEDDED_CATALOGUE.code_episodes(&mut episodes, &transcript);
        let codes: Vec<&str> = episodes[0].codes.iter().map(|c| c.code.as_str()).collect();
        assert!(codes.first().is_some_and(|c| c.starts_with('Y')), "{codes:?}");
    }

    #[test]
    fn a_pregnancy_beside_a_diagnosis_comes_after_it() {
        let mut episodes = vec![Episode {
            subjective: "24 weken zwanger, branderig plassen.".to_owned(),
            diagnosis: "Blaasontsteking in de zwangerschap.".to_owned(),
            ..Default::default()
        }];
        let transcript = ["Ik ben 24 weken zwanger en het brandt bij het plassen.", "Dit is een blaasontsteking."];
        EMBEDDED_CATALOGUE.code_episodes(&mut episodes, &transcript);
        let codes: Vec<&str> = episodes[0].codes.iter().map(|c| c.code.as_str()).collect();
        assert_eq!(codes.first(), Some(&"U71"), "{codes:?}");
    }

    #[test]
    fn an_export_with_header_quotes_and_either_separator_is_read() {
        let codes = parse_import(
            "Code;Patiënt;Officieel\nK86;Hoge bloeddruk;\"Hypertensie; zonder orgaanschade\"\n-30;Onderzoek;Volledig onderzoek\n",
        )
        .unwrap();
        assert_eq!(codes.len(), 2);
        assert_eq!(codes[0].id(), "K86");
        assert_eq!(codes[0].official_title, "Hypertensie; zonder orgaanschade");
        assert_eq!(codes[1].category, "-");
        assert!(parse_import("K86,Hoge bloeddruk,Hypertensie\nX1,a,b\n").unwrap_err().contains("regel 2"));
        assert!(parse_import("").is_err());
    }

    /// The cases the SPA's search is checked against too (`web/src/features/icpc/search.test.ts`).
    #[test]
    fn search_follows_the_shared_cases() {
        #[derive(Deserialize)]
        struct Case {
            query: String,
            expected: Vec<String>,
        }
        let cases: Vec<Case> = serde_json::from_str(include_str!("../data/icpc/search-cases.json")).unwrap();
        assert!(cases.len() >= 20);
        for case in cases {
            let found: Vec<String> = search(embedded(), &case.query).into_iter().map(Code::id).collect();
            assert_eq!(found, case.expected, "query {:?}", case.query);
        }
    }

    #[test]
    fn predict_ranks_what_the_text_says() {
        let ids = |text: &str| EMBEDDED_CATALOGUE.predict(text).into_iter().map(|s| s.code.id()).collect::<Vec<_>>();
        let found = ids("Bekend met DM2. Komt voor controle van de hoge bloeddruk, RR 165/95.");
        assert!(found.iter().take(3).any(|c| c == "K86"), "{found:?}");
        assert!(found.contains(&"T90".to_owned()), "{found:?}");
        let found = ids("Sinds 3 dagen gastro-enteritis met diarree en braken");
        assert!(found.iter().take(3).any(|c| c.starts_with('D')), "{found:?}");
        assert!(ids("").is_empty());
        assert!(ids("Goed gesprek gehad.").len() <= 10);
        assert!(EMBEDDED_CATALOGUE.predict("hoge bloeddruk").iter().all(|s| s.code.category != "-"), "no process codes");
    }

    #[test]
    fn what_the_text_denies_is_not_suggested() {
        let ids = |text: &str| EMBEDDED_CATALOGUE.predict(text).into_iter().map(|s| s.code.id()).collect::<Vec<_>>();
        let found = ids("Geen koorts. Wel hoest sinds een week.");
        assert!(!found.contains(&"A03".to_owned()), "{found:?}");
        assert!(found.contains(&"R05".to_owned()), "{found:?}");
        // the negation reaches no further than its clause, nor past 'maar wel'
        assert!(ids("Niet benauwd, koorts sinds gisteren").contains(&"A03".to_owned()));
        assert!(ids("Geen hoest maar wel koorts").contains(&"A03".to_owned()));
        // "is niet" with a qualifier after it does not deny: the asthma is there
        assert!(ids("Astma is niet goed onder controle.").contains(&"R96".to_owned()));
        assert!(!ids("Een longontsteking is het niet.").contains(&"R81".to_owned()));
        // a risk, a possible effect, what is to be ruled out: none is what the patient has
        assert!(!ids("De kans op een herseninfarct is de komende dagen verhoogd.").contains(&"K90".to_owned()));
        assert!(!ids("Dit middel kan een hypo geven.").contains(&"T87".to_owned()));
        assert!(!ids("Hartfalen wil ik uitsluiten.").contains(&"K77".to_owned()));
        assert!(ids("Hartfalen.").contains(&"K77".to_owned()));
        assert!(!ids("Ik test je urine op chlamydia en gonorroe.").iter().any(|c| c == "X92" || c == "X71"));
        // what a vaccination protects against, and a denial right after the name
        assert!(!ids("Dan bent u beschermd tegen tetanus.").contains(&"N72".to_owned()));
        assert!(ids("Tetanus.").contains(&"N72".to_owned()));
        assert!(!ids("Aan een depressie denk ik niet.").contains(&"P76".to_owned()));
        assert!(!ids("Aan een depressie niet, want tussendoor voelt ze zich goed.").contains(&"P76".to_owned()));
    }

    #[test]
    fn the_diagnosis_the_assessment_concludes_comes_first() {
        let codes = codes_for("Gisteren een slappe arm.", "Een beroerte laat blijvende schade achter; dit past bij een TIA.");
        assert_eq!(codes.first().map(String::as_str), Some("K89"), "{codes:?}");
    }

    #[test]
    fn a_relatives_illness_and_death_are_not_suggested() {
        let ids = |text: &str| EMBEDDED_CATALOGUE.predict(text).iter().map(|s| s.code.id()).collect::<Vec<_>>();
        assert!(!ids("Moeder had ook een beroerte. Hoofdpijn sinds een week.").contains(&"K90".to_owned()));
        assert!(ids("Volgens moeder heeft ze sinds gisteren koorts.").contains(&"A03".to_owned()));
        assert!(ids("Vader met een beroerte? Nee. Sinds vanochtend een beroerte, scheve mond.").contains(&"K90".to_owned()));
        assert!(!ids("Soms gedachten aan de dood, geen plannen.").contains(&"A96".to_owned()));
        assert!(!ids("Wel heeft mijn vader op zijn vijftigste een beroerte gehad.").contains(&"K90".to_owned()));
        // an assessment that rules out
        assert!(!ids("Een beroerte past hier niet bij.").contains(&"K90".to_owned()));
        // the complaint inside a compound
        assert!(ids("Refluxklachten, maagzuur dat terugstroomt.").contains(&"D84".to_owned()));
        // said to a carer, of the patient
        assert!(ids("Waarschijnlijk heeft vader een urineweginfectie met koorts.").contains(&"U71".to_owned()));
        assert!(!ids("Geen aanwijzingen voor een ritmestoornis zoals boezemfibrilleren.").contains(&"K78".to_owned()));
    }

    fn two_problem_note() -> (Vec<Episode>, Vec<&'static str>) {
        let episodes = vec![
            Episode {
                subjective: "Sinds 4 dagen keelpijn, slikken doet pijn. Geen koorts.".into(),
                objective: "Keel rood, geen beslag op de tonsillen.".into(),
                diagnosis: "Virale keelontsteking.".into(),
                plan: "Paracetamol zo nodig.".into(),
                codes: Vec::new(),
            },
            Episode {
                subjective: "Sinds een week pijn onderin de rug na tillen, geen uitstraling.".into(),
                objective: "Lasègue negatief.".into(),
                diagnosis: "Aspecifieke lage rugpijn.".into(),
                plan: "Naproxen, fysiotherapeut.".into(),
                codes: Vec::new(),
            },
        ];
        let transcript = vec![
            "Goedemorgen, gaat u zitten.",
            "Ik heb sinds vier dagen keelpijn en het slikken doet pijn.",
            "Koorts heb ik niet gehad.",
            "En ik heb last van mijn onderrug sinds ik een kast heb getild.",
            "De keelpijn is een virale keelontsteking.",
            "Dat is aspecifieke lage rugpijn.",
            "Voor de rug schrijf ik naproxen voor en verwijs ik u naar de fysiotherapeut.",
        ];
        (episodes, transcript)
    }

    #[test]
    fn each_episode_gets_its_own_codes_with_the_sentences_that_support_them() {
        let (mut episodes, transcript) = two_problem_note();
        EMBEDDED_CATALOGUE.code_episodes(&mut episodes, &transcript);
        let ids = |e: &Episode| e.codes.iter().map(|c| c.code.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&episodes[0]).first().map(String::as_str), Some("R74"), "{:?}", episodes[0].codes);
        assert!(ids(&episodes[0]).contains(&"R21".to_owned()), "{:?}", episodes[0].codes);
        assert!(!ids(&episodes[0]).contains(&"A03".to_owned()), "denied fever: {:?}", episodes[0].codes);
        assert_eq!(ids(&episodes[1]).first().map(String::as_str), Some("L03"), "{:?}", episodes[1].codes);
        for episode in &episodes {
            assert!(!episode.codes.is_empty() && episode.codes.len() <= MAX_EPISODE_CODES);
            for code in &episode.codes {
                assert!(!code.accepted);
                assert!(!code.evidence.is_empty() && code.evidence.len() <= MAX_EVIDENCE, "{code:?}");
                assert!(code.evidence.iter().all(|e| transcript.contains(&e.as_str())), "{code:?}");
            }
        }
        let throat = &episodes[0].codes[0];
        assert_eq!(throat.title, "Verkoudheid");
        assert_eq!(throat.evidence, vec!["De keelpijn is een virale keelontsteking."]);
        assert_eq!(episodes[1].codes[0].evidence, vec!["Dat is aspecifieke lage rugpijn."]);
    }

    #[test]
    fn the_rest_code_for_a_virus_comes_after_the_organs_code() {
        let codes = codes_for(
            "Sinds 3 dagen verkouden, hoest en ademt snel.",
            "Dit past bij bronchiolitis, een virusinfectie van de kleine luchtwegen, vaak door het RS-virus.",
        );
        assert_eq!(codes.first().map(String::as_str), Some("R78"), "{codes:?}");
        // beside a symptom it is still suggested, after it
        let codes = codes_for("Koorts sinds gisteren.", "Een virusinfectie.");
        assert_eq!(codes, ["A03", "A77"]);
    }

    #[test]
    fn an_anaemia_named_by_its_cause_is_that_anaemia_and_sites_and_acts_name_their_codes() {
        let codes = codes_for("Pijnlijke rode tong en moe.", "Een tekort aan vitamine B12, met een lichte bloedarmoede.");
        assert_eq!(codes.first().map(String::as_str), Some("B81"), "{codes:?}");
        assert!(!codes.contains(&"B82".to_owned()), "{codes:?}");
        let codes = codes_for("Tintelingen in de pink bij leunen op de elleboog.", "Beknelling van de nervus ulnaris bij de elleboog.");
        assert_eq!(codes.first().map(String::as_str), Some("N94"), "{codes:?}");
        let codes = codes_for("Sinds de bevalling doet vrijen pijn.", "Droge dunne vagina door de borstvoeding.");
        assert!(codes.contains(&"X04".to_owned()), "{codes:?}");
    }

    fn codes_for(subjective: &str, diagnosis: &str) -> Vec<String> {
        let mut episodes = vec![Episode { subjective: subjective.into(), diagnosis: diagnosis.into(), ..Default::default() }];
        let transcript = [subjective, diagnosis];
        EMBEDDED_CATALOGUE.code_episodes(&mut episodes, &transcript);
        episodes[0].codes.iter().map(|c| c.code.clone()).collect()
    }

    #[test]
    fn a_body_sites_own_code_wins_over_the_generic_one() {
        for (s, e) in [
            ("Pijn in de rechterknie bij traplopen.", "Dit past bij artrose van de knie."),
            ("Stijve knie in de ochtend.", "De knie laat slijtage zien."),
            ("Last van de knie.", "Gonartrose."),
            // the side named with the site: "rechterknie" is the knee
            ("Pijn bij traplopen.", "Artrose van de rechterknie."),
        ] {
            let codes = codes_for(s, e);
            assert_eq!(codes.first().map(String::as_str), Some("L90"), "{e}: {codes:?}");
            assert!(!codes.contains(&"L91".to_owned()), "the generic code beside the knee's own: {codes:?}");
        }
        // artrose elsewhere stays generic
        assert_eq!(codes_for("Pijn in de duim.", "Artrose van de duimbasis.").first().map(String::as_str), Some("L91"));
        // the hip's own code, wherever the generic one ranked: "slijtage" within "slijtage heup",
        // "artrose" within the compound "heupartrose"
        for e in
            ["Artrose van de heup, slijtage dus.", "Heupartrose, de artrose zit rechts.", "Dit past goed bij artrose van de linkerheup."]
        {
            let codes = codes_for("Pijn in de lies bij het tuinieren.", e);
            assert_eq!(codes.first().map(String::as_str), Some("L89"), "{e}: {codes:?}");
            assert!(!codes.contains(&"L91".to_owned()), "{e}: {codes:?}");
        }
    }

    #[test]
    fn the_general_case_and_what_a_finding_may_point_to_are_not_suggested() {
        let codes = codes_for(
            "Scheve mond sinds vanochtend.",
            "Perifere aangezichtsverlamming, geen beroerte. Bij een beroerte blijft het voorhoofd gespaard.",
        );
        assert!(!codes.contains(&"K90".to_owned()), "{codes:?}");
        assert!(codes_for("Scheve mond.", "Klachten passen bij een beroerte.").contains(&"K90".to_owned()));
        // nor what a finding may point to
        let codes = codes_for("Plast bloed.", "Bloed in de urine kan een teken zijn van een poliep in de blaas.");
        assert_eq!(codes.first().map(String::as_str), Some("U06"), "{codes:?}");
        // nor what a condition supposes; "als kind" tells the past
        let codes =
            codes_for("Zwelling links boven de bal.", "Varicocele. Als het zwanger worden na een jaar niet lukt, volgt een zaadonderzoek.");
        assert!(!codes.contains(&"W78".to_owned()), "{codes:?}");
        assert!(codes_for("Als kind had hij astma.", "Geen klachten nu.").contains(&"R96".to_owned()));
    }

    #[test]
    fn a_complaint_the_assessment_concludes_comes_before_one_it_only_mentions() {
        // "past goed bij": one word between the pair still concludes; P06 is a complaint's code
        let codes = codes_for("Altijd moe, snurkt al jaren.", "Wat vrouw beschrijft en hoe moe overdag is, past goed bij slaapapneu.");
        assert_eq!(codes.first().map(String::as_str), Some("P06"), "{codes:?}");
    }

    #[test]
    fn a_blood_pressure_called_too_high_is_k85_and_named_hypertension_k86() {
        let codes = codes_for("Komt voor een controle.", "De bloeddruk is nog iets te hoog.");
        assert_eq!(codes.first().map(String::as_str), Some("K85"), "{codes:?}");
        let codes = codes_for("Bekend met hypertensie.", "De bloeddruk is nog te hoog.");
        assert_eq!(codes.first().map(String::as_str), Some("K86"), "{codes:?}");
        assert!(!codes.contains(&"K85".to_owned()), "{codes:?}");
        let codes = codes_for("Gebruikt sinds zes weken amlodipine.", "De bloeddruk is nog te hoog.");
        assert_eq!(codes.first().map(String::as_str), Some("K86"), "on a blood-pressure drug: {codes:?}");
    }

    #[test]
    fn the_named_diagnosis_comes_first_with_at_most_one_symptom_code_beside_it() {
        let codes = codes_for(
            "Koorts en hoesten sinds een week, misselijk, hoofdpijn en keelpijn. Koorts tot 39 graden, hoest vooral 's nachts.",
            "Ik denk aan een longontsteking.",
        );
        assert_eq!(codes.first().map(String::as_str), Some("R81"), "{codes:?}");
        let symptoms = codes.iter().filter(|c| c[1..].parse::<u8>().is_ok_and(|n| (1..=29).contains(&n))).count();
        assert!(symptoms <= 1, "{codes:?}");
        // with no diagnosis, the symptoms are what there is
        let codes = codes_for("Koorts en hoesten sinds een week, en hoofdpijn.", "");
        assert!(codes.len() >= 2, "{codes:?}");
        // the complaint the assessment names comes before those only the history tells
        let codes = codes_for("Hartkloppingen en hoofdpijn, slaapt slecht.", "Overspannen door het werk.");
        assert_eq!(codes.first().map(String::as_str), Some("P02"), "{codes:?}");
    }

    #[test]
    fn process_codes_and_unsupported_codes_are_never_suggested() {
        let codes = vec![
            Code { category: "-".into(), code: "31".into(), patient_title: "Keelpijn".into(), official_title: "Keelpijn".into() },
            Code { category: "R".into(), code: "45".into(), patient_title: "Keelpijn".into(), official_title: "Keelpijn".into() },
            Code { category: "R".into(), code: "21".into(), patient_title: "Keelpijn".into(), official_title: "Keelpijn".into() },
        ];
        let catalogue = Catalogue::new(codes);
        let mut episodes = vec![Episode { subjective: "Keelpijn.".into(), ..Default::default() }];
        catalogue.code_episodes(&mut episodes, &["Ik heb keelpijn."]);
        assert_eq!(episodes[0].codes.iter().map(|c| c.code.as_str()).collect::<Vec<_>>(), ["R21"]);
        // a code the note names but no sentence of the transcript supports is left out
        catalogue.code_episodes(&mut episodes, &["Goedemorgen."]);
        assert!(episodes[0].codes.is_empty());
    }

    #[test]
    fn the_embedded_list_is_complete_and_unique() {
        let codes = embedded();
        for chapter in ["A", "B", "D", "F", "H", "K", "L", "N", "P", "R", "S", "T", "U", "W", "X", "Y", "Z"] {
            let n = codes.iter().filter(|c| c.category == chapter).count();
            assert!(n >= 20, "chapter {chapter} has {n} codes");
        }
        assert_eq!(codes.iter().filter(|c| c.category == "-").count(), 40, "process codes 30-69");
        let mut ids: Vec<String> = codes.iter().map(Code::id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), codes.len());
        for key in SYNONYMS.keys() {
            assert!(codes.iter().any(|c| &c.id() == key), "synonym key {key} is not in the list");
        }
    }
}
