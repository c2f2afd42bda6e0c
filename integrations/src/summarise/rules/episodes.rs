//! Episodes: which problem of the consult each sentence belongs to.
//!
//! The clinician's `episode_count` is the number of episodes written (at least one); the
//! transcript decides only how sentences are spread over them. With one episode everything goes
//! to it. With more:
//!
//! 1. Each sentence gets a topic from the body-part / organ-system lexicon [`TOPICS`] (the topic
//!    with most cue hits; none when no cue hits). A word a topic's cues would catch that is not
//!    of the topic ("hartstikke", "blaasjes", a "pols" that is the pulse: [`FALSE_FRIENDS`]) does
//!    not count for it.
//! 2. The `episode_count` topics mentioned most in clinical sentences, an assessment counting
//!    twice (ties: the earliest), become the episodes, numbered in order of first mention.
//! 3. A sentence with one of those topics goes to its episode; any other sentence goes to the
//!    episode of the sentence before it (the conversation stays on a problem until it moves on),
//!    or, at the start, to the first episode that follows.
//! 4. When the lexicon finds fewer topics than episodes but the conversation marks its topic
//!    changes ("dan nog iets anders", "en dan uw knie", "tweede punt"), the marked segments are the
//!    episodes instead, in order, extra segments joining the last episode.
//!
//! Episodes nothing was assigned to stay empty, so the note always has the number asked for.

use std::borrow::Cow;

use super::cues::{self, CueList};
use super::lexicon::{NEW_PROBLEM, ONESELF, TOPIC_CHANGE, TOPIC_CHANGE_START};

/// Topics by body part or organ system: a name (for documentation) and its cues.
pub(crate) static TOPICS: [(&str, CueList); 21] = [
    (
        "luchtwegen",
        CueList::new(&[
            "hoest*",
            "verkoud*",
            "keel*",
            "neus*",
            "snot*",
            "slijm*",
            "long*",
            "benauwd*",
            "kortademig*",
            "griep*",
            "bijholte*",
            "sinus*",
            "piepen",
            "fluiten",
            "inhal*",
            "astma*",
            "copd",
            "puffer*",
            "feneticilline",
            "amoxicilline",
            "doxycycline",
            "azitromycine",
            "claritromycine",
            "amandel*",
            "tonsil*",
            "saturatie",
            "ademhaling",
        ]),
    ),
    (
        "oor",
        CueList::new(&[
            "oor",
            "oren",
            "rechteroor",
            "linkeroor",
            "oorpijn*",
            "trommelvlies*",
            "trommelvliezen",
            "gehoor*",
            "oorsmeer",
            "tinnitus",
            "oorsuizen",
            "fluittoon",
            "audiogram",
            "hoortoestel*",
            "slechthorend*",
        ]),
    ),
    (
        "hart-vaat",
        CueList::new(&[
            "bloeddruk*",
            "hypertensie*",
            "tensie",
            "hart*",
            "cholesterol*",
            "amlodipine",
            "lisinopril",
            "enalapril",
            "losartan",
            "hydrochloorthiazide",
            "metoprolol",
            "ldl",
            "cardiovasculair*",
            "zout*",
            "furosemide",
            "plastablet*",
            "plaspil*",
            "oedeem",
            "boezemfibrilleren",
            "atriumfibrilleren",
            "apixaban",
            "rivaroxaban",
        ]),
    ),
    (
        "diabetes",
        CueList::new(&[
            "suiker*",
            "diabet*",
            "glucose*",
            "hba1c",
            "metformine*",
            "gliclazide*",
            "insuline*",
            "voetcontrole",
            "monofilament",
            "hypo*",
            "dm2",
            "schildklier*",
            "tsh",
            "t4",
            "levothyroxine*",
            "thyrax*",
        ]),
    ),
    (
        "buik",
        CueList::new(&[
            "buik*",
            "maag*",
            "misselijk*",
            "overgeven",
            "braken",
            "diarree*",
            "ontlasting*",
            "obstipatie",
            "darm*",
            "zuurbrand*",
            "omeprazol*",
            "pantoprazol*",
            "poep*",
            "verstop*",
            "macrogol*",
            "laxe*",
            "aambei*",
            "anus",
            "anaal",
            "anale",
            "fissu*",
            "reflux*",
            "lies*",
        ]),
    ),
    (
        "urineweg",
        CueList::new(&[
            "plas*",
            "urine*",
            "blaas*",
            "branderig*",
            "nier*",
            "nitrofurantoïne*",
            "nitrofurantoine*",
            "fosfomycine*",
            "cystitis",
            "urineweg*",
            "nitriet",
            "stick*",
        ]),
    ),
    (
        "huid",
        CueList::new(&[
            "huid*",
            "eczeem*",
            "jeuk*",
            "jeuken",
            // not "uitslag" alone, which is as often a result ("de uitslag van het bloedonderzoek")
            "huiduitslag*",
            "luieruitslag*",
            "liesuitslag*",
            "plek*",
            "plekje*",
            "vlek*",
            "wrat*",
            "zalf*",
            "crème*",
            "creme*",
            "smeren",
            "insmeren",
            "hydrocortison*",
            "triamcinolon*",
            "betamethason*",
            "moedervlek*",
            "wond*",
            "schilfer*",
            "vette",
            "schimmel*",
            "miconazol*",
            "terbinafine*",
            "ketoconazol*",
            "acne",
            "puist*",
            "pukkel*",
            "mee-eter*",
            "krentenbaard",
            "impetigo",
            "fusidinezuur",
            "luis",
            "luizen",
            "hoofdluis",
            "neten",
            "brandwond*",
            "blaar",
            "blaren",
            "blaasje*",
            "beet",
            "gebeten",
            "bult*",
            "psoriasis",
            "netelroos",
            "urticaria",
            "zonnebrand*",
            "steelwrat*",
            "*schimmel",
            "*eczeem",
            "haren",
            "haaruitval",
            "hoofdhuid",
            "kaal*",
            "kale",
        ]),
    ),
    (
        "rug",
        CueList::new(&[
            "rug*",
            "onderrug*",
            "lumba*",
            "hernia*",
            "spit",
            "ischias*",
            "uitstral*",
            "lasègue",
            "bilnaad",
            "wervel*",
            "tillen",
            "getild",
            // the spine's other end: "last van mijn nek", "nekklachten"
            "nek",
            "nekpijn",
            "nekklachten",
        ]),
    ),
    ("knie", CueList::new(&["knie*", "rechterknie*", "linkerknie*", "meniscus*", "kniebanden", "knieschijf"])),
    (
        "been",
        CueList::new(&[
            "been",
            "benen",
            "onderbeen",
            "bovenbeen",
            "kuit*",
            "scheenbeen",
            "dijbeen",
            "heup*",
            "linkerheup*",
            "rechterheup*",
            "trochanter*",
        ]),
    ),
    (
        "enkel-voet",
        CueList::new(&[
            "enkel",
            "enkels",
            "rechterenkel",
            "linkerenkel",
            "voet",
            "voeten",
            "rechtervoet",
            "linkervoet",
            "verzwik*",
            "verstuik*",
            "teen",
            "tenen",
            "malleol*",
            "ottawa",
            "inversietrauma",
            "enkelband*",
            "jicht*",
            "colchicine",
            "hiel*",
            "achilles*",
            "fasciitis",
        ]),
    ),
    (
        "schouder-arm",
        CueList::new(&[
            "schouder*",
            "rechterschouder",
            "linkerschouder",
            "arm",
            "armen",
            "rechterarm",
            "linkerarm",
            "elleboog*",
            "hand",
            "handen",
            "rechterhand",
            "linkerhand",
            "vinger*",
            "pols",
            "rechterpols",
            "linkerpols",
        ]),
    ),
    ("hoofd", CueList::new(&["hoofdpijn*", "migraine*", "duizel*", "hoofd"])),
    (
        "psyche",
        CueList::new(&[
            "slaap*",
            "slapen",
            "sliep",
            "somber*",
            "stress*",
            "angst*",
            "paniek*",
            "pieker*",
            "onrust*",
            "depress*",
            "burn*",
            "overspannen*",
            "psycholoog*",
            "gespannen",
            "oxazepam",
            "sertraline",
            "citalopram",
            "temazepam",
            "verdriet*",
            "rouw*",
            "boos*",
            "woede*",
            "concentr*",
            "adhd",
            "tentamen*",
            "examen*",
        ]),
    ),
    (
        "oog",
        CueList::new(&[
            "oog",
            "ogen",
            "rechteroog",
            "linkeroog",
            "zicht",
            "wazig",
            "*ooglid",
            "strontje",
            "hordeolum",
            "chalazion",
            "conjunctivitis",
            "traanoog",
        ]),
    ),
    (
        "vrouw",
        CueList::new(&[
            "pil",
            "anticonceptie*",
            "menstruatie*",
            "ongesteld*",
            "menstrueren",
            "overgang*",
            "opvlieger*",
            "zwanger*",
            "spiraal*",
            "borst",
            "borsten",
            "uitstrijk*",
            "vaginaal",
            "afscheiding",
        ]),
    ),
    (
        "alcohol",
        CueList::new(&[
            "alcohol*", "bier", "biertje*", "wijn", "wijntje*", "glazen", "drank", "drankje*", "borrel*", "audit", "audit-c", "dronken",
            "kater",
        ]),
    ),
    (
        "roken",
        CueList::new(&[
            "rook",
            "rookt",
            "roken",
            "rookte",
            "gerookt",
            "sigaret*",
            "shag",
            "nicotine*",
            "champix",
            "varenicline",
            "stopdatum",
        ]),
    ),
    // a form or a medical examination asked for: "een keuring voor het rijbewijs"
    ("verklaring", CueList::new(&["rijbewijs*", "keuring*", "keuringsarts*", "verklaring*", "attest*", "sportkeuring*", "duikkeuring*"])),
    // the blood: anaemia and iron
    (
        "bloed",
        CueList::new(&["bloedarmoede", "anemie", "ijzer*", "hemoglobine", "hb", "ferritine", "ferrofumaraat", "mcv", "rode bloedcellen"]),
    ),
    // sexual health: erection problems, a test for a sexually transmitted infection
    (
        "seksualiteit",
        CueList::new(&[
            "erectie*",
            "ochtenderectie*",
            "impoten*",
            "potentie*",
            "sildenafil",
            "tadalafil",
            "viagra",
            "libido",
            "seks*",
            "vrijen",
            "penis",
            "soa*",
            "chlamydia",
            "gonorroe",
            "syfilis",
            "condoom*",
        ]),
    ),
];

/// The topic index of a sentence: the topic with most cue hits, `None` without hits.
pub(crate) fn topic_of(sentence: &str) -> Option<usize> {
    most_named(&topic_counts(sentence)).next()
}

/// Each topic's cue hits in `sentence`, leaving out what a denied link names ("het komt niet door
/// de bloeddruk" is not about the blood pressure): the clause from the denial on.
fn topic_counts(sentence: &str) -> [u32; TOPICS.len()] {
    let counts = |s: &str| -> [u32; TOPICS.len()] { std::array::from_fn(|i| TOPICS[i].1.count(&for_topic(TOPICS[i].0, s))) };
    match DENIED_LINK.find(sentence) {
        Some(at) => {
            let end = sentence[at..].find([',', '.', ';', '?', '!']).map_or(sentence.len(), |e| at + e);
            counts(&format!("{} {}", &sentence[..at], &sentence[end..]))
        }
        None => counts(sentence),
    }
}

/// Words a topic's cues would catch that are not of the topic, per topic: "hartstikke dik" is no
/// heart, "blaasjes" are the skin's, the "blaastest" measures the lungs, "urinezuur" or
/// "nierfunctie" is a lab value of any problem (gout, blood pressure, diabetes), the "plaspil" is
/// the blood pressure's. (And for the arm a "pols" that is the pulse, see [`for_topic`].)
pub(crate) static FALSE_FRIENDS: [(&str, CueList); 2] = [
    ("hart-vaat", CueList::new(&["hartstikke", "hartig", "hartje", "hartvormig", "hartelijk*"])),
    (
        "urineweg",
        CueList::new(&[
            "urinezuur",
            "nierfunctie",
            "nierwaarde*",
            "blaasje*",
            "blaastest*",
            "blaast",
            "plastisch*",
            "plastic*",
            "plaspil*",
            "plastablet*",
        ]),
    ),
];

/// What follows a "pols" that is the pulse.
const PULSE_FOLLOWS: [&str; 2] = ["regelmatig", "onregelmatig"];

/// `sentence` as topic `topic` counts it: without the words [`FALSE_FRIENDS`] lists for it, and
/// for the arm without a "pols" that is the pulse ("pols 76", "de pols is regelmatig"). Most
/// sentences hold none, found by one look at the whole sentence; only then is it taken apart.
fn for_topic<'s>(topic: &str, sentence: &'s str) -> Cow<'s, str> {
    let friends = FALSE_FRIENDS.iter().find(|(t, _)| *t == topic).map(|(_, list)| list);
    let arm = topic == "schouder-arm" && cues::has_cue(sentence, "pols");
    if !arm && !friends.is_some_and(|list| list.any(sentence)) {
        return Cow::Borrowed(sentence);
    }
    let words: Vec<&str> = sentence.split_whitespace().collect();
    let bare = |w: &str| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
    let pulse = |i: usize| {
        arm && bare(words[i]) == "pols"
            && words[i + 1..]
                .iter()
                .map(|w| bare(w))
                .find(|w| !matches!(w.as_str(), "is" | "was" | "van"))
                .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_digit()) || PULSE_FOLLOWS.contains(&w.as_str()))
    };
    let false_friend = |i: usize| pulse(i) || friends.is_some_and(|list| list.any(&bare(words[i])));
    if !(0..words.len()).any(false_friend) {
        return Cow::Borrowed(sentence);
    }
    Cow::Owned((0..words.len()).filter(|&i| !false_friend(i)).map(|i| words[i]).collect::<Vec<_>>().join(" "))
}

/// What denies a link to another problem: what follows is not what the sentence is about.
static DENIED_LINK: CueList =
    CueList::new(&["niet door", "niets met", "niets te maken met", "los van", "niet van de", "niet van het", "niet van uw"]);

/// The topics named most often, tied (the first of [`TOPICS`] first); none without hits.
fn most_named(counts: &[u32; TOPICS.len()]) -> impl Iterator<Item = usize> + '_ {
    let most = counts.iter().copied().max().unwrap_or(0);
    (0..TOPICS.len()).filter(move |&i| most > 0 && counts[i] == most)
}

/// The sentence without a clause that gives a reason or a side effect after a comma
/// ("Ontstekingsremmers liever niet, die verhogen uw bloeddruk"): what it is about is said first.
fn main_clause(sentence: &str) -> &str {
    [", die ", ", want ", ", omdat ", ", zodat ", ", dat "]
        .iter()
        .filter_map(|m| sentence.find(m))
        .min()
        .map_or(sentence, |at| &sentence[..at])
}

/// Clinical sentences a topic needs before it counts as a problem of its own in [`problems`].
const PROBLEM_MENTIONS: u32 = 3;

/// The most problems [`problems`] tells apart.
const MAX_PROBLEMS: usize = 3;

/// The problems of a consult for which one episode was asked: each sentence's problem (0-based,
/// in order of first mention) and how many there are. A problem is a topic with at least
/// [`PROBLEM_MENTIONS`] clinical sentences (`weight[i] > 0`, see [`assign`]), one of them an
/// assessment (`decided[i]`; a plan alone, "neem voor de knie paracetamol", is no problem):
/// a symptom asked about along the way is not a problem of its own. Sentences in between follow
/// the rules of [`assign`]. One problem, or none found, gives every sentence problem 0 and a
/// count of 1.
pub(crate) fn problems(sentences: &[&str], weight: &[u32], decided: &[bool]) -> (Vec<usize>, usize) {
    let mut mentions = [(0u32, false); TOPICS.len()];
    for (i, s) in sentences.iter().enumerate().filter(|(i, _)| weight[*i] > 0) {
        if let Some(t) = topic_of(s) {
            mentions[t].0 += 1;
            mentions[t].1 |= decided[i];
        }
    }
    let count = mentions.iter().filter(|(n, d)| *n >= PROBLEM_MENTIONS && *d).count().min(MAX_PROBLEMS);
    if count < 2 {
        return marked_problems(sentences, weight, decided).unwrap_or_else(|| (vec![0; sentences.len()], 1));
    }
    (assign(sentences, weight, count), count)
}

/// True when the sentence raises another problem ("Dan heb ik nog iets: …"; not "Heeft u verder
/// nog vragen?").
fn raises_a_problem(sentence: &str) -> bool {
    NEW_PROBLEM.any(sentence) && !closes(sentence)
}

/// True when the sentence asks the closing question ("Heeft u verder nog vragen?"), whatever
/// marks of a move it holds.
fn closes(sentence: &str) -> bool {
    cues::has_cue(sentence, "nog vragen")
}

/// Each sentence's part, counting the marks up to and at it: 0 before the first.
fn parts_by(marks: impl IntoIterator<Item = bool>) -> Vec<usize> {
    let mut part = 0;
    marks
        .into_iter()
        .map(|m| {
            part += usize::from(m);
            part
        })
        .collect()
}

/// The problems the conversation's marked moves part ("Dan heb ik nog iets: …"), where the topics
/// tell none apart (two skin problems, an elbow and a wart): each part from a mark on holds an
/// assessment and [`PROBLEM_MENTIONS`] clinical sentences, and so does the part before the first.
fn marked_problems(sentences: &[&str], weight: &[u32], decided: &[bool]) -> Option<(Vec<usize>, usize)> {
    // (a mark that raises another problem, not a move within one: "dan nog")
    let parts = parts_by(sentences.iter().map(|s| raises_a_problem(s)));
    let count = parts.last().map_or(1, |last| last + 1);
    if !(2..=MAX_PROBLEMS).contains(&count) {
        return None;
    }
    let whole = |p: usize| {
        let part = || (0..sentences.len()).filter(|&i| parts[i] == p);
        part().filter(|&i| weight[i] > 0).count() >= PROBLEM_MENTIONS as usize && part().any(|i| decided[i])
    };
    (0..count).all(whole).then_some((parts, count))
}

/// True when the sentence marks a move to another problem.
pub(crate) fn is_topic_change(sentence: &str) -> bool {
    // "Heeft u verder nog vragen?" closes the consult
    ((NEW_PROBLEM.any(sentence) || TOPIC_CHANGE.any(sentence)) && !closes(sentence))
        // at the start of any of its sentences: "Goed. En dan mijn bloeddruk nog."
        || sentence.split_inclusive(['.', '!', '?']).any(|part| TOPIC_CHANGE_START.starts_any(part.trim_start()))
}

/// The episode (0-based, below `count`) of each sentence. `weight[i]` is what sentence `i` counts
/// for its topic when choosing the topics: nothing where it was placed in no SOEP field.
pub(crate) fn assign(sentences: &[&str], weight: &[u32], count: usize) -> Vec<usize> {
    let n = sentences.len();
    if count <= 1 || n == 0 {
        return vec![0; n];
    }
    // each sentence's topic counts, and its main clause's where a reason follows it
    let counts: Vec<([u32; TOPICS.len()], Option<[u32; TOPICS.len()]>)> = sentences
        .iter()
        .map(|s| {
            let main = main_clause(s);
            (topic_counts(s), (main.len() < s.len()).then(|| topic_counts(main)))
        })
        .collect();
    let topics: Vec<Option<usize>> = counts.iter().map(|(whole, _)| most_named(whole).next()).collect();
    // Mentions (weighed) and first mention per topic, over the clinical sentences.
    let mut mentions = vec![(0u32, usize::MAX); TOPICS.len()];
    for (i, t) in topics.iter().enumerate() {
        if let Some(t) = t {
            // the order of the problems is the order they are raised in, by whoever raises them
            // ("U komt voor de jaarcontrole van de suiker"), but not by a greeting's small talk
            // ("Hoe gaat het met de buik?" to a pregnant woman who comes for her back)
            if !(weight[i] == 0 && is_small_talk(sentences[i])) {
                mentions[*t].1 = mentions[*t].1.min(i);
            }
            mentions[*t].0 += weight[i];
        }
    }
    // a topic only small talk named is ordered where it was named
    for (i, t) in topics.iter().enumerate() {
        if let Some(t) = t
            && mentions[*t].1 == usize::MAX
        {
            mentions[*t].1 = i;
        }
    }
    let mut ranked: Vec<usize> = (0..TOPICS.len()).filter(|&t| mentions[t].0 > 0).collect();
    ranked.sort_by_key(|&t| (std::cmp::Reverse(mentions[t].0), mentions[t].1));
    ranked.truncate(count);
    ranked.sort_by_key(|&t| mentions[t].1);

    let markers: Vec<bool> = sentences.iter().map(|s| is_topic_change(s)).collect();
    let segments = 1 + markers.iter().filter(|m| **m).count();
    let by_marks = |marks: &[bool]| parts_by(marks.iter().copied()).into_iter().map(|part| part.min(count - 1)).collect::<Vec<_>>();
    // the marks that raise another problem in so many words ("O ja, en dan nog iets"), which
    // decide where there are as many as the problems less one, rather than every mark ("En dan
    // de morfinedrank" in a list of medicines)
    let raised: Vec<bool> = sentences.iter().map(|s| raises_a_problem(s)).collect();
    let in_so_many_words = 1 + raised.iter().filter(|m| **m).count() == count;
    if ranked.len() < count && segments > ranked.len() {
        return by_marks(if in_so_many_words { &raised } else { &markers });
    }
    let topical = by_topic(&counts, &markers, &ranked);
    // As many marked moves as problems less one, none of which the topics follow (of the marker
    // and the three sentences after it, at most one leaves the episode before it): two problems
    // the lexicon does not tell apart ("Dan heb ik nog iets: een bult op mijn rug" after a cold
    // sore), so the marks decide.
    let unseen = |i: usize| i > 0 && (i..n.min(i + 4)).filter(|&k| topical[k] != topical[i - 1]).count() <= 1;
    // Nor one after which the topics go back to an episode whose problem was told before it ("Oh,
    // en ik heb nog een vraag." and a mole, after hair loss whose side effects named another
    // topic).
    let told = |e: usize, i: usize| (0..i).filter(|&k| topical[k] == e && weight[k] > 0).count() >= PROBLEM_MENTIONS as usize;
    let returns = |i: usize| i > 0 && topical[i] != topical[i - 1] && told(topical[i], i);
    // Nor one that moves to the speaker's own problem after another's ("mag ik nog iets over
    // mezelf vragen?", a mother after her daughter's rash): whose problem it is, no topic tells.
    let own = |i: usize| ONESELF.any(sentences[i]);
    // (and each segment holds a sentence of a SOEP field: a mark in the closing words leaves an
    // episode empty)
    let filled = |episodes: &[usize]| (0..count).all(|e| (0..n).any(|i| episodes[i] == e && weight[i] > 0));
    // (every mark, or else those that raise another problem in so many words)
    let decide = |marks: &[bool]| {
        let parts = 1 + marks.iter().filter(|m| **m).count();
        if parts != count || !marks.iter().enumerate().filter(|(_, m)| **m).all(|(i, _)| unseen(i) || returns(i) || own(i)) {
            return None;
        }
        let marked = by_marks(marks);
        filled(&marked).then_some(marked)
    };
    decide(&markers).or_else(|| decide(&raised)).unwrap_or(topical)
}

/// Whether the clinician only asks after how something is, which raises no problem: "Hoe gaat het
/// met de buik?" (to a pregnant woman who comes for her back), "hoe is het met de kleine".
fn is_small_talk(s: &str) -> bool {
    cues::has_cue(s, "hoe gaat het met") || cues::has_cue(s, "hoe is het met")
}

/// The episode of each sentence by the `ranked` topics its main clause names (see [`assign`]).
fn by_topic(counts: &[([u32; TOPICS.len()], Option<[u32; TOPICS.len()]>)], markers: &[bool], ranked: &[usize]) -> Vec<usize> {
    let n = counts.len();

    // Per sentence, the chosen topics its main clause names most often: one is its episode; two
    // tied ("afvallen helpt voor de knie én voor de bloeddruk") keep the episode it is in.
    let named: Vec<Vec<usize>> = counts
        .iter()
        .map(|(whole, main)| most_named(main.as_ref().unwrap_or(whole)).filter_map(|t| ranked.iter().position(|&r| r == t)).collect())
        .collect();
    let mut out: Vec<Option<usize>> = named.iter().map(|n| (n.len() == 1).then(|| n[0])).collect();
    // A sentence that moves on ("Dan mijn handen, …") without a chosen topic of its own opens the
    // episode of the next few sentences, not the one before.
    for i in 0..n {
        if out[i].is_none() && markers[i] {
            out[i] = out[i + 1..n.min(i + 4)].iter().flatten().next().copied();
        }
    }
    // Carry the episode forward over sentences without one of the chosen topics, and over those
    // that name the current one among others; another tie opens the first it names.
    let mut current = None;
    for (e, named) in out.iter_mut().zip(&named) {
        match e {
            Some(x) => current = Some(*x),
            None if named.len() > 1 && !current.is_some_and(|c| named.contains(&c)) => {
                *e = named.first().copied();
                current = *e;
            }
            None => *e = current,
        }
    }
    // Sentences before the first topic go to the first episode that follows.
    let first = out.iter().flatten().next().copied().unwrap_or(0);
    out.into_iter().map(|e| e.unwrap_or(first)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_neck_is_the_spines_not_the_arms() {
        let topic = |s: &str| most_named(&topic_counts(s)).next().map(|t| TOPICS[t].0);
        assert_eq!(topic("Ik heb sinds een paar maanden last van mijn nek en schouders."), Some("rug"));
        assert_eq!(topic("Mijn handen slapen steeds in, vooral 's nachts."), Some("schouder-arm"));
    }

    #[test]
    fn small_talk_raises_no_problem() {
        // the clinician asks after the pregnancy's belly; the back is the first problem raised
        let s = [
            "Goedemiddag mevrouw, hoe gaat het met de buik?",
            "Ik heb sinds drie weken pijn onderin mijn rug.",
            "Er is drukpijn over de onderrug.",
            "Dit is rugpijn door de zwangerschap.",
            "O ja, en ik heb ook last van brandend maagzuur.",
            "Vooral na het eten komt het zuur omhoog.",
            "Dit is zuurbranden.",
        ];
        // (the greeting itself belongs nowhere in the note, wherever it is put)
        assert_eq!(assign(&s, &[0, 1, 1, 2, 1, 1, 2], 2)[1..], [0, 0, 0, 1, 1, 1]);
    }

    #[test]
    fn a_false_friend_is_no_topic() {
        let topic = |s: &str| topic_of(s).map(|t| TOPICS[t].0);
        assert_eq!(topic("Mijn grote teen is hartstikke dik."), Some("enkel-voet"));
        assert_eq!(topic("Sommige zijn nog rode bultjes, andere blaasjes met vocht erin."), Some("huid"));
        assert_eq!(topic("Pols 76, regelmatig."), None);
        assert_eq!(topic("De pols is pijnlijk."), Some("schouder-arm"));
        assert_eq!(topic("Het urinezuur prikken we over zes weken."), None);
        assert_eq!(topic("In maart was uw nierfunctie licht verminderd."), None);
        assert_eq!(topic("De plaspil stoppen we."), Some("hart-vaat"));
        assert_eq!(topic("Ik rook twintig sigaretten per dag."), Some("roken"));
        assert_eq!(topic("Dan drink ik wel tien, twaalf biertjes."), Some("alcohol"));
        assert_eq!(topic("Sinds gisteren brandt het bij het plassen."), Some("urineweg"));
    }

    #[test]
    fn a_marked_move_decides_where_the_topics_go_back() {
        // hair loss and a mole are both the skin's; the side effects named another topic, which
        // the topics took for the second problem
        let s = [
            "Ik word kaal, bovenop bij de kruin.",
            "De hoofdhuid is rustig, geen kale plekken.",
            "Dit is erfelijke kaalheid.",
            "Minoxidil lotion smeert u twee keer per dag op de hoofdhuid.",
            "Het kan bijwerkingen geven, zoals minder zin in seks.",
            "Oh, en ik heb nog een vraag.",
            "Mijn vriendin zag een moedervlek op mijn rug.",
            "Op het schouderblad zit een moedervlek van vijf millimeter.",
            "Dit is een goedaardige moedervlek.",
        ];
        assert_eq!(assign(&s, &[1, 1, 1, 1, 1, 0, 1, 1, 1], 2), vec![0, 0, 0, 0, 0, 1, 1, 1, 1]);
        // a mother's own problem after her daughter's: both the skin's, and the topics follow the
        // mark into the hands and back to the skin
        let s = [
            "Lotte heeft een rode kring op haar onderarm.",
            "Ik zie een ronde rode plek van drie centimeter.",
            "Dit is een ringworm, een schimmelinfectie van de huid.",
            "Ik schrijf miconazolcrème voor.",
            "Handen wassen na het aaien van het kitten.",
            "Eh, dokter, mag ik nog iets over mezelf vragen?",
            "Mijn handen zijn al weken heel droog.",
            "Het jeukt en soms bloedt het een beetje.",
            "De rug van beide handen is rood en schilferig.",
            "Dit is handeczeem.",
            "Smeer vaak een vette crème.",
        ];
        assert_eq!(assign(&s, &[1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1], 2), vec![0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
    }

    #[test]
    fn topics_split_two_problems() {
        let s = [
            "Ik hoest al een week.",
            "En het slijm is groen.",
            "Ik heb ook nog last van mijn knie.",
            "Die is dik.",
            "De longen klinken schoon.",
            "De knie is niet gezwollen.",
        ];
        let clinical = [1; 6];
        assert_eq!(assign(&s, &clinical, 2), vec![0, 0, 1, 1, 0, 1]);
        assert_eq!(assign(&s, &clinical, 1), vec![0; 6]);
    }

    #[test]
    fn problems_are_numbered_in_the_order_they_are_raised() {
        let s = [
            "U komt voor de controle van de suiker.",
            "Ik heb ook last van mijn grote teen.",
            "Mijn suikers zitten tussen de 7 en de 9.",
            "De suiker is goed ingesteld.",
            "De nagel van de teen groeit in.",
        ];
        // the opening names the sugar before the toe is raised, though it is no finding itself
        let clinical = [0, 1, 1, 1, 1];
        assert_eq!(assign(&s, &clinical, 2), vec![0, 1, 0, 0, 1]);
    }

    #[test]
    fn a_reason_or_a_shared_advice_stays_with_the_problem_at_hand() {
        let s = [
            "De bloeddruk is 150/92.",
            "De bloeddruk is nog te hoog.",
            "Mijn knie doet pijn bij traplopen.",
            "De knie kraakt bij bewegen.",
            "Dit is artrose van de knie.",
            "Ontstekingsremmers liever niet, die verhogen uw bloeddruk.",
            "Ik verwijs u naar de fysiotherapeut.",
            "En afvallen helpt voor de knie en voor de bloeddruk.",
        ];
        assert_eq!(assign(&s, &[1; 8], 2), vec![0, 0, 1, 1, 1, 1, 1, 1]);
    }

    #[test]
    fn markers_split_when_the_lexicon_cannot() {
        let s = ["Ik ben zo moe.", "Dan nog iets anders.", "Ik wil een verklaring.", "Prima."];
        assert_eq!(assign(&s, &[1; 4], 2), vec![0, 1, 1, 1]);
        assert!(is_topic_change("O, en nu ik hier toch ben, ik heb weer een koortslip."));
        assert!(is_topic_change("O ja, en moet ik niet eens een uitstrijkje laten maken?"));
    }

    #[test]
    fn the_closing_question_moves_nowhere() {
        assert!(!is_topic_change("Heeft u verder nog vragen?"));
        assert!(is_topic_change("Goed. En dan mijn bloeddruk nog."));
        assert!(is_topic_change("O, en er is nog iets: de juf belde dat er luizen in de klas zijn."));
        // a hip and the blood pressure: the only marks are "verder nog" in the closing question
        // and a move the topics follow; no episode is left empty
        let s = [
            "Ik heb pijn in mijn heup.",
            "De endorotatie van de heup is beperkt.",
            "Dit is artrose van de heup.",
            "Goed. En dan mijn bloeddruk nog.",
            "De bloeddruk is 152 over 86.",
            "De bloeddruk is nog te hoog.",
            "Heeft u verder nog vragen?",
            "Nee, dank u wel.",
        ];
        assert_eq!(assign(&s, &[1, 1, 2, 0, 1, 2, 0, 0], 2), vec![0, 0, 0, 1, 1, 1, 1, 1]);
    }

    #[test]
    fn a_problem_raised_in_so_many_words_is_one_of_its_own() {
        // impetigo and head lice, both the skin's: one episode asked, two problems found
        let s = [
            "Ze heeft korstjes rond haar neus.",
            "Het zijn gele korsten.",
            "Rond de neusgaten zitten honinggele korsten.",
            "Dit is krentenbaard.",
            "O, en er is nog iets: ik heb neten gevonden.",
            "Ze krabt veel op haar hoofd.",
            "Achter de oren zitten neten.",
            "Dus er is ook hoofdluis.",
        ];
        let weight = [1, 1, 1, 2, 1, 1, 1, 2];
        let decided = weight.map(|w| w == 2);
        assert_eq!(problems(&s, &weight, &decided), (vec![0, 0, 0, 0, 1, 1, 1, 1], 2));
        // a move within one problem is not one
        let mut within = s;
        within[4] = "Moet ik dan iets anders smeren?";
        assert_eq!(problems(&within, &weight, &decided).1, 1);
    }

    #[test]
    fn a_move_raised_in_so_many_words_decides_among_the_marks() {
        // a daughter lists her mother's medicines ("En dan de …", a mark of a move) before she
        // raises the constipation: of the two marks, the one that raises a problem decides
        let s = [
            "De pijn wordt erger, boven in de buik.",
            "Ja, de morfine retard, 's ochtends en 's avonds. En dan de morfinedrank als het nodig is.",
            "De lever is vergroot en drukpijnlijk.",
            "De dosis morfine is nu te laag.",
            "Ik verhoog de morfine retard.",
            "O ja, en dan nog iets, dokter. Ze is al vijf dagen niet naar de wc geweest.",
            "De buik is opgezet, in de endeldarm veel harde ontlasting.",
            "Dit is verstopping door de morfine.",
            "Daarna elke dag twee zakjes macrogol.",
        ];
        assert_eq!(assign(&s, &[1; 9], 2), vec![0, 0, 0, 0, 0, 1, 1, 1, 1]);
        assert!(raises_a_problem("O ja, en dan nog iets, dokter."));
        assert!(raises_a_problem("O ja, over die suikers wilde ik het eigenlijk ook hebben."));
        // asking to say something more is a move, not yet a problem
        assert!(!raises_a_problem("Dokter, mag ik nog iets zeggen?") && is_topic_change("Dokter, mag ik nog iets zeggen?"));
    }

    #[test]
    fn a_marked_move_the_topics_do_not_follow_decides() {
        // two skin problems: the topics keep everything together, the mark splits them
        let s = [
            "Ik heb weer een koortslip, de huid op mijn lip is rood.",
            "Dit is een koortslip, de huid droogt vanzelf in.",
            "Dan heb ik nog iets: een bult op mijn rug.",
            "Onder het schouderblad voel ik een zachte zwelling onder de huid.",
            "Dit is een lipoom, een vetbult in de huid.",
        ];
        assert_eq!(assign(&s, &[1; 5], 2), vec![0, 0, 1, 1, 1]);
        // where the topics follow the move themselves, they decide
        let s = [
            "Mijn keel doet pijn.",
            "De keel is rood.",
            "Dan nog iets anders, mijn knie.",
            "De knie is dik.",
            "En de keel, neem paracetamol.",
        ];
        assert_eq!(assign(&s, &[1; 5], 2), vec![0, 0, 1, 1, 0]);
    }

    #[test]
    fn a_denied_link_names_no_problem() {
        // the tinnitus does not come from the blood pressure: the sentence is the ear's
        let s = [
            "Ik heb een piep in mijn oren.",
            "Mijn bloeddruk was thuis 155 over 95.",
            "De trommelvliezen zijn rustig.",
            "De bloeddruk is 152 over 94.",
            "Ik denk dat de piep in uw oren komt door gehoorverlies.",
            "Het is niet gevaarlijk, en het komt niet door de bloeddruk.",
            "Ik laat een audiogram maken.",
            "De bloeddruk is verhoogd.",
        ];
        assert_eq!(assign(&s, &[1, 1, 1, 1, 2, 2, 1, 2], 2), vec![0, 1, 0, 1, 0, 0, 0, 1]);
        // constipation and its laxative, itching and the skin
        let s = [
            "Ik kan al drie weken slecht naar de wc, de ontlasting is keihard.",
            "Ik heb overal jeuk aan mijn huid.",
            "Ik denk dat de verstopping door de tramadol komt.",
            "Ik schrijf u macrogol voor.",
            "De jeuk komt door een droge huid.",
        ];
        assert_eq!(assign(&s, &[1, 1, 2, 1, 2], 2), vec![0, 1, 0, 0, 1]);
    }

    #[test]
    fn the_thyroid_hair_a_form_and_a_result_are_told_apart() {
        // "de uitslag" of a blood test is no rash; the thyroid and the hair are problems of their own
        let s = [
            "U komt voor de uitslag van het bloedonderzoek?",
            "Ja, voor mijn schildklier, ik gebruik levothyroxine.",
            "Uw TSH is 6,8, dat is te hoog.",
            "En dan nog iets, ik verlies zoveel haren.",
            "De hoofdhuid is rustig.",
            "Ik denk dat dit diffuse haaruitval is.",
        ];
        assert_eq!(assign(&s, &[0, 1, 1, 1, 1, 2], 2), vec![0, 0, 0, 1, 1, 1]);
        // a form asked for is a problem of its own, beside the sugar and the cough
        let s = [
            "Ik kom voor de controle van mijn suiker.",
            "Dan het tweede, ik hoest al twee weken.",
            "En ik heb een formulier van het CBR voor mijn rijbewijs.",
            "De suiker is goed ingesteld.",
            "De longen klinken schoon.",
            "Voor het rijbewijs moet u naar een keuringsarts.",
        ];
        assert_eq!(assign(&s, &[1, 1, 1, 2, 1, 1], 3), vec![0, 1, 2, 0, 1, 2]);
    }
}
