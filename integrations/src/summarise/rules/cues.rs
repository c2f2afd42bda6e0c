//! The Dutch cue lists of the rules engine, kept as data, and the matcher that finds them.
//!
//! A cue is a lowercase word or phrase matched ASCII-case-insensitively at a word start and, by
//! default, ending at a word end. Two markers widen a cue: a trailing `*` makes it a prefix
//! (`hoest*` matches "hoest", "hoesten", "hoestbui"), a leading `*` lets it start inside a word
//! (`*ontsteking` matches "blaasontsteking"). Matching allocates nothing; the big lists are
//! indexed once (by their first two letters) so a sentence is tried only against the cues its
//! words can start.
//!
//! The lists were written from the NHG SOEP conventions and general-practice language before the
//! test set existed (a few general additions followed errors on its dev split): S is what the patient tells, O only what was examined or measured, E the
//! assessment, P the agreed plan. Every list is a slice of `&'static str`, so adding a cue is a
//! one-line change.

use std::collections::HashMap;
use std::sync::LazyLock;

/// True when `cue` occurs in `text` (see the module doc for the cue syntax).
pub(crate) fn has_cue(text: &str, cue: &str) -> bool {
    find_cue(text, cue).is_some()
}

/// A cue split into its needle and its boundary rules.
struct Cue<'c> {
    needle: &'c [u8],
    /// The match must start at a word start.
    check_start: bool,
    /// The match must end at a word end.
    check_end: bool,
}

impl<'c> Cue<'c> {
    fn parse(cue: &'c str) -> Option<Self> {
        let (cue, infix) = match cue.strip_prefix('*') {
            Some(rest) => (rest, true),
            None => (cue, false),
        };
        let (needle, prefix) = match cue.strip_suffix('*') {
            Some(rest) => (rest.as_bytes(), true),
            None => (cue.as_bytes(), false),
        };
        let (&first, &last) = (needle.first()?, needle.last()?);
        Some(Cue {
            needle,
            check_start: !infix && is_word_byte(first),
            check_end: !prefix && is_word_byte(last),
        })
    }

    fn matches_at(&self, hay: &[u8], i: usize) -> bool {
        let n = self.needle;
        i + n.len() <= hay.len()
            && hay[i..i + n.len()].eq_ignore_ascii_case(n)
            && (!self.check_start || i == 0 || !is_word_byte(hay[i - 1]))
            && (!self.check_end || i + n.len() == hay.len() || !is_word_byte(hay[i + n.len()]))
    }

    fn find(&self, hay: &[u8]) -> Option<usize> {
        let first = self.needle[0];
        if self.needle.len() > hay.len() {
            return None;
        }
        (0..=hay.len() - self.needle.len())
            .find(|&i| hay[i].eq_ignore_ascii_case(&first) && self.matches_at(hay, i))
    }
}

/// The byte offset of the first match of `cue` in `text`.
pub(crate) fn find_cue(text: &str, cue: &str) -> Option<usize> {
    Cue::parse(cue)?.find(text.as_bytes())
}

/// A sentence prepared for matching many cues: where its words start and which ASCII letters
/// words start with. A cue that must start at a word start is then tried only there, and skipped
/// at once when no word starts with its letter. Lives on the stack: no allocation.
struct Words<'a> {
    hay: &'a [u8],
    starts: [u16; 64],
    len: usize,
    /// More words than `starts` holds, or a text too long for `u16`: scan instead.
    overflow: bool,
    /// Bit `c - b'a'` set when a word starts with letter `c`.
    initials: u32,
}

impl<'a> Words<'a> {
    fn new(text: &'a str) -> Self {
        let hay = text.as_bytes();
        let mut w = Words {
            hay,
            starts: [0; 64],
            len: 0,
            overflow: hay.len() > usize::from(u16::MAX),
            initials: 0,
        };
        if w.overflow {
            return w;
        }
        for i in 0..hay.len() {
            if is_word_byte(hay[i]) && (i == 0 || !is_word_byte(hay[i - 1])) {
                if w.len == w.starts.len() {
                    w.overflow = true;
                    return w;
                }
                w.starts[w.len] = i as u16;
                w.len += 1;
                let c = hay[i].to_ascii_lowercase();
                if c.is_ascii_lowercase() {
                    w.initials |= 1 << (c - b'a');
                }
            }
        }
        w
    }

    fn has(&self, cue: &str) -> bool {
        let Some(cue) = Cue::parse(cue) else {
            return false;
        };
        if self.overflow || !cue.check_start {
            return cue.find(self.hay).is_some();
        }
        let first = cue.needle[0].to_ascii_lowercase();
        if first.is_ascii_lowercase() && self.initials & (1 << (first - b'a')) == 0 {
            return false;
        }
        self.starts[..self.len].iter().any(|&i| {
            let i = usize::from(i);
            self.hay[i].to_ascii_lowercase() == first && cue.matches_at(self.hay, i)
        })
    }
}

/// True when `cue` matches at the very start of `text`.
pub(crate) fn at_start(text: &str, cue: &str) -> bool {
    Cue::parse(cue).is_some_and(|c| c.matches_at(text.as_bytes(), 0))
}

/// True when `text`, after leading spaces and punctuation, starts with `cue`.
pub(crate) fn starts_with_cue(text: &str, cue: &str) -> bool {
    let t = text.trim_start_matches(|c: char| !c.is_alphanumeric());
    Cue::parse(cue).is_some_and(|c| c.matches_at(t.as_bytes(), 0))
}

/// How many cues of `list` occur in `text`.
pub(crate) fn count(text: &str, list: &[&str]) -> u32 {
    let words = Words::new(text);
    match index_of(list) {
        Some(index) if !words.overflow => index.count(list, &words),
        _ => list.iter().filter(|c| words.has(c)).count() as u32,
    }
}

/// True when any cue of `list` occurs in `text`.
pub(crate) fn any(text: &str, list: &[&str]) -> bool {
    count(text, list) > 0
}

/// The cue lists the engine matches most, indexed once by their first two letters so a sentence
/// is only tried against the cues its words can start. Keyed by the list's address; a list not
/// here is matched cue by cue.
fn registered() -> Vec<&'static [&'static str]> {
    let mut lists = vec![
        GREETING,
        AGREEMENT,
        RESTATE,
        OBJECTIVE,
        EVALUATION,
        DIAGNOSIS_TERMS,
        PLAN,
        SUBJECTIVE,
        GGZ_SUBJECTIVE,
        GGZ_OBJECTIVE,
        TOPIC_CHANGE,
        REFERRAL,
        ALLERGY,
        ADDITIONAL_TESTS,
        IMAGING,
        RADIOLOGY_CONCLUSION,
        ACTION,
        ANNOUNCE,
    ];
    lists.extend(super::episodes::TOPICS.iter().map(|(_, l)| *l));
    lists.extend(crate::summarise::speaker::CUE_LISTS);
    lists
}

static INDEXES: LazyLock<HashMap<usize, Index>> = LazyLock::new(|| {
    registered()
        .into_iter()
        .map(|l| (l.as_ptr() as usize, Index::new(l)))
        .collect()
});

fn index_of(list: &[&str]) -> Option<&'static Index> {
    INDEXES
        .get(&(list.as_ptr() as usize))
        .filter(|i| i.len == list.len())
}

/// Bucket of a word start or a cue: first letter × (second letter or "other").
fn bucket(c0: u8, c1: Option<u8>) -> Option<usize> {
    let c0 = c0.to_ascii_lowercase();
    if !c0.is_ascii_lowercase() {
        return None;
    }
    let c1 = match c1.map(|c| c.to_ascii_lowercase()) {
        Some(c) if c.is_ascii_lowercase() => usize::from(c - b'a'),
        _ => 26,
    };
    Some(usize::from(c0 - b'a') * 27 + c1)
}

/// One list's cues by bucket; cues that may start anywhere or with a non-letter are scanned.
struct Index {
    len: usize,
    buckets: Vec<Vec<u16>>,
    scan: Vec<u16>,
}

impl Index {
    fn new(list: &[&str]) -> Self {
        let mut index = Index {
            len: list.len(),
            buckets: vec![Vec::new(); 26 * 27],
            scan: Vec::new(),
        };
        for (i, c) in list.iter().enumerate() {
            let Ok(id) = u16::try_from(i) else { break };
            match Cue::parse(c) {
                Some(cue) if cue.check_start => {
                    match bucket(cue.needle[0], cue.needle.get(1).copied()) {
                        Some(b) => index.buckets[b].push(id),
                        None => index.scan.push(id),
                    }
                }
                Some(_) => index.scan.push(id),
                None => {}
            }
        }
        index
    }

    fn count(&self, list: &[&str], words: &Words) -> u32 {
        let mut seen = [0u64; 16];
        let mut n = 0;
        let mut mark = |id: u16| {
            let (w, b) = (usize::from(id) / 64, id % 64);
            if w < seen.len() && seen[w] & (1 << b) == 0 {
                seen[w] |= 1 << b;
                n += 1;
            }
        };
        for &id in &self.scan {
            if words.has(list[usize::from(id)]) {
                mark(id);
            }
        }
        let hay = words.hay;
        for &start in &words.starts[..words.len] {
            let i = usize::from(start);
            let Some(b) = bucket(hay[i], hay.get(i + 1).copied()) else {
                continue;
            };
            let other = b - b % 27 + 26;
            let pair = [b, other];
            let bks = if b == other { &pair[..1] } else { &pair[..] };
            for &bk in bks {
                for &id in &self.buckets[bk] {
                    if Cue::parse(list[usize::from(id)]).is_some_and(|c| c.matches_at(hay, i)) {
                        mark(id);
                    }
                }
            }
        }
        n
    }
}

/// True when any cue of `list` starts `text`.
pub(crate) fn starts_any(text: &str, list: &[&str]) -> bool {
    list.iter().any(|c| starts_with_cue(text, c))
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b >= 0x80
}

/// True when `text` holds a measured value: a number followed by a unit ("38,5 graden",
/// "98%", "7,2 mmol") or a blood-pressure-like ratio ("140/90").
pub(crate) fn has_measurement(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < b.len() && (b[j].is_ascii_digit() || b[j] == b',' || b[j] == b'.') {
            j += 1;
        }
        // "140/90", "140 over 90"
        if j + 1 < b.len() && b[j] == b'/' && b[j + 1].is_ascii_digit() {
            return true;
        }
        let rest = text[j..].trim_start();
        if rest.starts_with('%') || rest.starts_with('°') {
            return true;
        }
        if UNITS.iter().any(|u| starts_with_cue(rest, u)) && rest.len() < text.len() {
            let gap = &text[j..text.len() - rest.len()];
            if gap.len() <= 1 {
                return true;
            }
        }
        i = j.max(i + 1);
    }
    false
}

/// Units after a number that make it a measurement (O). Dosing units ("mg") are plan cues.
const UNITS: &[&str] = &[
    "mmhg",
    "graden",
    "mmol*",
    "kilo",
    "kg",
    "cm",
    "slagen",
    "per minuut",
    "over",
    "procent",
    "bpm",
    "punten",
    "µmol*",
    "umol*",
    "g/l",
    "x10*",
];

/// Whole-utterance pleasantries and the conversation's frame: dropped unless clinical cues outweigh.
pub(crate) static GREETING: &[&str] = &[
    "goedemorgen",
    "goedemiddag",
    "goedenavond",
    "hallo",
    "hoi",
    "dag meneer",
    "dag mevrouw",
    "dag dokter",
    "tot ziens",
    "tot de volgende keer",
    "doei",
    "fijne dag",
    "prettige dag",
    "goed weekend",
    "fijn weekend",
    "dank u wel",
    "dank je wel",
    "dankjewel",
    "dankuwel",
    "bedankt",
    "graag gedaan",
    "gaat u zitten",
    "neemt u plaats",
    "komt u binnen",
    "komt u verder",
    "wat kan ik voor u doen",
    "waar kan ik u mee helpen",
    "wat brengt u hier",
    "waar komt u voor",
    "vertelt u maar",
    "vertel eens",
    "vertelt u eens",
    "zegt u het maar",
    "hoe gaat het met u",
    "hoe is het",
    "lang niet gezien",
    "het weer",
    "parkeren",
    "wachtkamer",
    "beterschap",
    "sterkte",
    "geen probleem",
    "momentje",
    "ogenblikje",
    "heeft u nog vragen",
    "nog vragen",
    "is dat duidelijk",
    "is alles duidelijk",
    "begrijpt u",
    "snapt u",
    "is dat goed",
    "vindt u dat goed",
    "lijkt u dat goed",
    "spreekt u mij",
    "met dokter",
    "u spreekt met",
    "u belt",
    "ik bel u",
    "ik bel over",
    "ik belde",
];

/// Words that on their own (with fillers) are only an acknowledgement or a bare answer.
pub(crate) static ACK_WORDS: &[&str] = &[
    "ja",
    "nee",
    "neen",
    "oké",
    "ok",
    "okay",
    "goed",
    "prima",
    "hmm",
    "hm",
    "mm",
    "eh",
    "ehm",
    "uh",
    "uhm",
    "nou",
    "precies",
    "klopt",
    "juist",
    "akkoord",
    "top",
    "fijn",
    "duidelijk",
    "hoor",
    "zeker",
    "inderdaad",
    "natuurlijk",
    "ah",
    "o",
    "oh",
    "zo",
    "dat",
    "is",
    "het",
    "snap",
    "ik",
    "begrijp",
    "dan",
    "helder",
    "niet",
    "wel",
    "nooit",
    "soms",
    "echt",
    "jawel",
    "tuurlijk",
];

/// Patient sentences that accept or close the plan rather than tell anything.
pub(crate) static AGREEMENT: &[&str] = &[
    "dat ga ik doen",
    "dat zal ik doen",
    "dan doe ik dat",
    "dat doe ik",
    "dat is goed",
    "dat lijkt me goed",
    "dat lijkt me prima",
    "dat is prima",
    "dat klinkt goed",
    "dan kom ik terug",
    "dan bel ik",
    "dan weet ik het",
    "dan ga ik",
    "fijn dat",
    "dank u",
    "dank je",
    "bedankt",
    "ik zal het proberen",
    "ik ga het proberen",
    "ik probeer het",
];

/// Opening words of a question, when the transcript lost the question mark.
pub(crate) static QUESTION_START: &[&str] = &[
    "heeft u",
    "hebt u",
    "bent u",
    "is het",
    "is er",
    "zijn er",
    "doet het",
    "wat",
    "hoe",
    "waar",
    "wanneer",
    "welke",
    "waarom",
    "hoelang",
    "sinds wanneer",
    "gebruikt u",
    "neemt u",
    "kunt u",
    "merkt u",
    "rookt u",
    "drinkt u",
    "slaapt u",
    "voelt u",
    "wordt het",
    "gaat het",
    "heb je",
    "ben je",
    "doet u",
    "had u",
    "was er",
    "zit het",
    "straalt het",
    "krijgt u",
];

/// Openings of a question that proposes the plan ("Zullen we afspreken dat ...?").
pub(crate) static PROPOSAL: &[&str] = &[
    "zullen we",
    "zal ik",
    "spreken we af",
    "is het goed als",
    "vindt u het goed",
    "wat vindt u ervan",
    "lijkt het u",
    "wilt u dat ik",
    "zou u",
    "zou je",
];

/// Questions that are about the conversation or the plan, not the patient's health: a yes or no
/// after them says nothing for S.
pub(crate) static NON_CLINICAL_QUESTION: &[&str] = &[
    "heeft u nog vragen",
    "nog vragen",
    "is dat goed",
    "is dat duidelijk",
    "snapt u",
    "begrijpt u",
    "zullen we",
    "zal ik",
    "mag ik",
    "kan ik",
    "wilt u",
    "vindt u",
    "lukt dat",
    "lijkt u",
    "is dat oké",
    "kunt u daarmee",
    "gaat u",
    "doet u even",
    "kunt u even",
    "wilt u even",
    "ligt u",
    "zit u",
    "klopt dat",
];

/// The doctor announcing or directing the examination: no finding yet, so no O.
pub(crate) static ANNOUNCE: &[&str] = &[
    "ik ga even",
    "ik wil even",
    "mag ik even",
    "zal ik even",
    "gaat u even",
    "wilt u even",
    "trekt u even",
    "doet u even",
    "kunt u even",
    "ik kijk even",
    "ik ga u even",
    "ik ga nu",
    "dan ga ik",
    "dan gaan we even",
    "laten we even",
    "ik ga eens",
    "gaat u maar",
    "even kijken",
    "ik ga kijken",
    "ik ga luisteren",
    "ik wil kijken",
    "ik wil luisteren",
    "zet u",
    "buigt u",
    "draait u",
    "tilt u",
    "kijkt u",
    "ademt u",
    "zuchten",
    "diep in",
    "mond open",
    "even liggen",
    "ik meet",
    "ik ga meten",
    "ik ga uw",
    "mag ik uw",
    "ik voel even",
    "we gaan even",
];

/// The doctor restating the history ("u heeft dus..."): S.
pub(crate) static RESTATE: &[&str] = &[
    "dus u heeft",
    "u heeft dus",
    "u zegt",
    "als ik het goed begrijp",
    "als ik u goed begrijp",
    "u vertelt",
    "u geeft aan",
    "dus sinds",
    "dus al",
    "u bent dus",
    "dus u bent",
    "dus het",
];

/// Examination findings and measurements: O (for the doctor's sentences).
pub(crate) static OBJECTIVE: &[&str] = &[
    "bij auscultatie",
    "bij palpatie",
    "bij percussie",
    "bij inspectie",
    "bij onderzoek",
    "bij lichamelijk onderzoek",
    "toont",
    "tonen",
    "verhoogd",
    "verlaagd",
    "positief",
    "negatief",
    "ige",
    "auscultatie",
    "palpatie",
    "percussie",
    "inspectie",
    "ik hoor",
    "hoor ik",
    "ik zie",
    "zie ik",
    "ik voel",
    "voel ik",
    "te zien",
    "te voelen",
    "te horen",
    "klinkt",
    "klinken",
    "vesiculair",
    "crepitaties",
    "rhonchi",
    "piepende ademhaling",
    "verlengd exspirium",
    "souffle",
    "regulair",
    "irregulair",
    "geen drukpijn",
    "drukpijn*",
    "drukpijnlijk",
    "loslaatpijn",
    "peritoneale prikkeling",
    "buik soepel",
    "soepel",
    "schoon",
    "rustig",
    "normaal",
    "normale",
    "geen afwijkingen",
    "afwijkend*",
    "niet afwijkend",
    "gezwollen",
    "zwelling",
    "hematoom",
    "blauw",
    "roodheid",
    "rood",
    "warm aanvoelend",
    "vochtophoping",
    "oedeem",
    "stabiel",
    "instabiel",
    "laxiteit",
    "bewegingsbeperking",
    "beweeglijkheid",
    "volledige",
    "beperkt",
    "pijnlijk bij",
    "lasègue",
    "reflexen",
    "kracht",
    "sensibiliteit",
    "trommelvlies*",
    "tonsillen",
    "amandelen",
    "keelwand",
    "beslag",
    "lymfeklier*",
    "klieren",
    "pupil*",
    "temperatuur",
    "bloeddruk is",
    "de bloeddruk",
    "uw bloeddruk",
    "tensie",
    "pols is",
    "hartfrequentie",
    "saturatie",
    "zuurstof*",
    "gewicht",
    "weegt",
    "bmi",
    "buikomvang",
    "hba1c",
    "glucose",
    "nuchter",
    "urine is",
    "in de urine",
    "urinestick",
    "stickje",
    "stick",
    "nitriet",
    "leukocyten",
    "erytrocyten",
    "kweek",
    "crp",
    "de uitslag",
    "uitslagen",
    "laboratorium",
    "labwaarden",
    "nierfunctie",
    "egfr",
    "cholesterol",
    "ldl",
    "ecg",
    "schilfering",
    "schilferend",
    "roodheid",
    "papels",
    "vesikels",
    "blaasjes",
    "korstjes",
    "darmgeluid*",
    "lichenificatie",
    "krabeffecten",
    "eczeemplekken",
    "huid is",
    "huid ziet",
    "monofilament",
    "sensibel",
    "voetpulsaties",
    "pulsaties",
    "enkelreflex",
    "voorste schuif",
    "schuiflade",
    "ottawa",
    "malleolus",
    "benige drukpijn",
    "kan steunen",
    "niet steunen",
    "loopt",
    "looppatroon",
    "maakt een",
    "oogt",
    "ziet er",
    "indruk",
    "alert",
    "suf",
    "ziek",
    "niet ziek",
    "nekstijfheid",
    "huidturgor",
    "capillaire refill",
    "meningeale",
    "petechiën",
];

/// The doctor's assessment: E. Phrases weigh more than bare diagnosis terms.
pub(crate) static EVALUATION: &[&str] = &[
    "waarschijnlijk",
    "vermoedelijk",
    "vermoed",
    "ik vermoed",
    "past bij",
    "passend bij",
    "ik denk dat het",
    "ik denk dat u",
    "ik denk dat er",
    "ik denk dat dit",
    "ik denk dat je",
    "het lijkt op",
    "lijkt op een",
    "het lijkt me",
    "lijkt het",
    "verdenking",
    "verdacht",
    "diagnose",
    "werkdiagnose",
    "conclusie",
    "het gaat om",
    "het gaat hier om",
    "het is een",
    "het is geen",
    "dat is een",
    "dit is een",
    "dit zijn",
    "wijst op",
    "duidt op",
    "aanwijzingen voor",
    "geen aanwijzing*",
    "het beeld van",
    "een beeld van",
    "klassiek",
    "typisch",
    "onschuldig",
    "niets ernstigs",
    "niet ernstig",
    "geen ernstige",
    "geen teken*",
    "goed ingesteld",
    "goed geregeld",
    "onder controle",
    "niet goed ingesteld",
    "te hoog",
    "te laag",
    "nog te hoog",
    "mooi binnen",
    "binnen de norm",
    "ontregeld",
    "gaat goed",
    "gaat de goede kant",
    "verbeterd",
    "vooruitgang",
    "ik schat in",
    "mijn inschatting",
    "dat komt door",
    "komt door",
    "het komt",
    "veroorzaakt",
    "het zit in",
    "het gaat om een",
    "ik verwacht dat",
    "zelflimiterend",
    "vanzelf over",
    "gaat vanzelf",
    "u heeft een",
    "heeft u een",
    "je hebt een",
    "het is een virus",
    "dat past",
    "dat verklaart",
];

/// Diagnosis terms (ICPC-like): a weak E cue on their own.
pub(crate) static DIAGNOSIS_TERMS: &[&str] = &[
    "*ontsteking",
    "infectie",
    "*infectie",
    "virus",
    "viraal",
    "virale",
    "bacterieel",
    "bacteriële",
    "verkoudheid",
    "griep",
    "influenza",
    "covid",
    "bronchitis",
    "pneumonie",
    "longontsteking",
    "sinusitis",
    "otitis",
    "tonsillitis",
    "faryngitis",
    "cystitis",
    "urineweginfectie",
    "eczeem",
    "dermatitis",
    "constitutioneel",
    "contacteczeem",
    "psoriasis",
    "schimmel*",
    "impetigo",
    "verstuiking",
    "distorsie",
    "inversietrauma",
    "enkelbandletsel",
    "kneuzing",
    "fractuur",
    "breuk",
    "lumbago",
    "spit",
    "aspecifieke",
    "hernia",
    "radiculair",
    "ischias",
    "hypertensie",
    "hoge bloeddruk",
    "diabetes",
    "diabetes mellitus",
    "dm2",
    "hypoglykemie",
    "angststoornis",
    "paniekstoornis",
    "angstklachten",
    "slaapstoornis",
    "insomnie",
    "slapeloosheid",
    "depressie",
    "depressieve",
    "somberheidsklachten",
    "burn-out",
    "burnout",
    "overspannen*",
    "surmenage",
    "stressklachten",
    "spanningsklachten",
    "migraine",
    "spanningshoofdpijn",
    "gastro-enteritis",
    "buikgriep",
    "reflux",
    "astma",
    "copd",
    "exacerbatie",
    "koortsstuip*",
    "waterpokken",
    "krentenbaard",
    "artrose",
    "tendinitis",
    "bursitis",
    "mucus",
    "allergie",
    "allergische",
    "hooikoorts",
    "urticaria",
    "conjunctivitis",
    "meniscus*",
    "bandletsel",
];

/// The agreed plan: medication and dosing, prescriptions, follow-up, referral, advice.
pub(crate) static PLAN: &[&str] = &[
    "ik schrijf",
    "schrijf ik",
    "voorschrijven",
    "voorgeschreven",
    "recept*",
    "apotheek",
    "mg",
    "milligram",
    "gram",
    "keer per dag",
    "keer daags",
    "maal daags",
    "x per dag",
    "per dag",
    "dd",
    "tablet*",
    "capsule*",
    "zakje*",
    "druppel*",
    "neusspray",
    "zalf",
    "crème",
    "creme",
    "smeren",
    "insmeren",
    "vet*",
    "innemen",
    "inneemt",
    "slikken",
    "paracetamol",
    "ibuprofen",
    "naproxen",
    "diclofenac",
    "amoxicilline",
    "amoxi",
    "nitrofurantoïne",
    "nitrofurantoine",
    "fosfomycine",
    "doxycycline",
    "azitromycine",
    "hydrocortison",
    "triamcinolon",
    "betamethason",
    "cetirizine",
    "loratadine",
    "salbutamol",
    "amlodipine",
    "lisinopril",
    "enalapril",
    "losartan",
    "hydrochloorthiazide",
    "metoprolol",
    "metformine",
    "gliclazide",
    "insuline",
    "omeprazol",
    "pantoprazol",
    "sertraline",
    "citalopram",
    "oxazepam",
    "temazepam",
    "xylometazoline",
    "antibiotic*",
    "kuur",
    "inhalator",
    "puffer",
    "voorzetkamer",
    "terugkomen",
    "terug komen",
    "kom terug",
    "komt u terug",
    "kom dan terug",
    "terugzien",
    "zie ik u",
    "zien we elkaar",
    "belt u",
    "bel dan",
    "bel gerust",
    "belt u dan",
    "neemt u contact",
    "contact opnemen",
    "controle",
    "controleren",
    "over een week",
    "over twee weken",
    "over drie weken",
    "over vier weken",
    "over zes weken",
    "over een maand",
    "over drie maanden",
    "over een half jaar",
    "volgende week",
    "over een paar dagen",
    "over een dag of",
    "verwijs",
    "verwijzen",
    "verwijzing",
    "doorverwijzen",
    "fysiotherapeut",
    "fysiotherapie",
    "fysio",
    "oefentherapeut",
    "psycholoog",
    "poh",
    "praktijkondersteuner",
    "diëtist",
    "podotherapeut",
    "specialist",
    "dermatoloog",
    "orthopeed",
    "internist",
    "kinderarts",
    "aanvragen",
    "vraag ik",
    "ik vraag",
    "laten prikken",
    "laten doen",
    "bloed laten",
    "ik stuur",
    "stuur ik",
    "advies",
    "adviseer",
    "ik raad",
    "raad ik",
    "aanraden",
    "probeer",
    "probeert u",
    "u kunt",
    "kunt u",
    "u mag",
    "mag u",
    "proberen",
    "adviseer*",
    "je mag",
    "je kunt",
    "het is verstandig",
    "het beste",
    "het liefst",
    "beperken",
    "minderen",
    "afvallen",
    "zou ik",
    "rust houden",
    "rustig aan",
    "koelen",
    "ijs",
    "hoog leggen",
    "bewegen",
    "blijven bewegen",
    "in beweging",
    "veel drinken",
    "goed drinken",
    "afspraak",
    "folder",
    "thuisarts",
    "we gaan",
    "gaan we",
    "we spreken af",
    "spreken we af",
    "afgesproken",
    "starten",
    "beginnen met",
    "begint u",
    "ophogen",
    "verhogen",
    "verlagen",
    "stoppen met",
    "afbouwen",
    "doorgaan met",
    "gaat u door",
    "blijft u",
    "dosis",
    "dosering",
    "als het niet beter",
    "als het erger",
    "als het niet over",
    "als de klachten",
    "als u koorts",
    "als er",
    "alarmsymptomen",
    "zelfzorg",
    "oefeningen",
    "gesprekken",
    "brace",
    "tape",
    "bandage",
    "krukken",
    "zwachtel",
    "ontspanningsoefeningen",
    "slaaphygiëne",
    "dagboek",
    "voor de nacht",
    "voor het slapen",
    "'s ochtends",
    "'s avonds innemen",
    "tot de klachten",
    "ziekmelden",
    "bedrijfsarts",
    "laboratorium",
    "nuchter bloed",
    "vaccinatie",
    "griepprik",
    "meten",
];

/// Patient complaint language: strengthens S for patients and for unknown speakers.
pub(crate) static SUBJECTIVE: &[&str] = &[
    "ik heb",
    "ik had",
    "heb ik",
    "had ik",
    "mijn",
    "me",
    "mij",
    "ik ben",
    "ik voel",
    "ik kan",
    "ik krijg",
    "ik merk",
    "ik word",
    "ik slaap",
    "ik lig",
    "ik loop",
    "ik hoest",
    "ik moet",
    "het doet pijn",
    "doet pijn",
    "pijn",
    "last",
    "klachten",
    "klacht",
    "sinds",
    "al een",
    "al twee",
    "al drie",
    "dagen",
    "weken",
    "maanden",
    "gisteren",
    "vannacht",
    "vanochtend",
    "vorige week",
    "koorts",
    "hoest*",
    "verkouden",
    "snot*",
    "keelpijn",
    "misselijk",
    "overgeven",
    "moe",
    "duizelig",
    "jeuk*",
    "branderig",
    "vaak plassen",
    "bang",
    "zorgen",
    "ongerust",
    "geprobeerd",
    "genomen",
    "geslikt",
    "gesmeerd",
    "hielp",
    "helpt",
    "werkt niet",
    "slecht",
    "erger",
    "minder",
    "stijf",
    "zeurend",
    "stekend",
    "uitstralen",
    "straalt",
    "gevallen",
    "verzwikt",
    "getild",
    "gebeurd",
    "ging",
    "kreeg",
    "werk",
    "thuis",
];

/// Mood, sleep and stress: S content in a POH-GGZ consult.
pub(crate) static GGZ_SUBJECTIVE: &[&str] = &[
    "slaap*",
    "slapen",
    "sliep",
    "wakker",
    "somber*",
    "stress*",
    "angst*",
    "paniek*",
    "pieker*",
    "onrust*",
    "gespannen",
    "moe",
    "uitgeput",
    "huil*",
    "zin in",
    "concentr*",
    "prikkelbaar",
    "geïrriteerd",
    "zorgen",
    "spanning",
    "hartkloppingen",
    "benauwd",
    "vermijd*",
    "werk",
    "relatie",
    "eenzaam",
    "rouw",
    "alcohol",
    "blowen",
];

/// The observed presentation and questionnaire scores: O in a POH-GGZ consult.
pub(crate) static GGZ_OBJECTIVE: &[&str] = &[
    "maakt een",
    "indruk",
    "oogt",
    "oogcontact",
    "affect",
    "stemming is",
    "spreekt",
    "spraak",
    "verzorgd",
    "psychomotor*",
    "vlak",
    "adequaat",
    "coherent",
    "suïcid*",
    "vragenlijst",
    "score",
    "scoort",
    "4dkl",
    "phq*",
    "gad*",
    "distress",
    "somatisatie",
    "punten",
];

/// Markers that the conversation moves to another problem.
pub(crate) static TOPIC_CHANGE: &[&str] = &[
    "nog iets anders",
    "iets anders",
    "nog een vraag",
    "nog een ander",
    "nog een klacht",
    "tweede punt",
    "ander punt",
    "andere klacht",
    "ander probleem",
    "ik had nog",
    "ik heb ook nog",
    "waar ik ook nog",
    "ik wilde ook nog",
    "ik wil ook nog",
    "dan nog",
    "verder nog",
    "dan kom ik bij",
    "dan gaan we naar",
    "wat betreft",
];

/// Topic-change markers that count only at the start of a sentence ("Dan uw knie.").
pub(crate) static TOPIC_CHANGE_START: &[&str] = &[
    "en dan uw",
    "dan uw",
    "en dan de",
    "dan de",
    "nu uw",
    "en uw",
    "dan over",
];

/// Referral cues: the reason a specialist letter is written.
pub(crate) static REFERRAL: &[&str] = &[
    "verwijz*",
    "verwezen",
    "reden van",
    "in verband met",
    "i.v.m.",
    "ivm",
    "vanwege",
    "graag uw",
    "verzoek",
    "beoordeling",
    "second opinion",
    "komt voor",
    "verwezen door",
];

/// Allergy history cues (kinderarts-allergoloog letters).
pub(crate) static ALLERGY: &[&str] = &[
    "allerg*",
    "reactie op",
    "pinda*",
    "noten",
    "ei",
    "eieren",
    "koemelk*",
    "melk",
    "tarwe",
    "soja",
    "vis",
    "schaaldieren",
    "eczeem",
    "astma",
    "hooikoorts",
    "netelroos",
    "galbulten",
    "urticaria",
    "zwelling van",
    "opgezwollen",
    "lippen",
    "epipen",
    "adrenaline",
    "atop*",
    "huisstofmijt",
    "pollen",
    "gras",
    "berk",
    "kat",
    "hond",
    "antihistamin*",
];

/// Additional tests: "Aanvullend onderzoek" in a specialist letter.
pub(crate) static ADDITIONAL_TESTS: &[&str] = &[
    "ige",
    "rast",
    "priktest",
    "huidtest",
    "huidpriktest",
    "bloedonderzoek",
    "lab*",
    "uitslag*",
    "provocatie*",
    "spirometrie",
    "longfunctie",
    "bloedbeeld",
    "crp",
    "kweek",
];

/// Imaging: "Beeldvorming" in a specialist letter.
pub(crate) static IMAGING: &[&str] = &[
    "röntgen*",
    "rontgen*",
    "foto",
    "foto's",
    "echo*",
    "mri",
    "ct",
    "scan",
    "opname*",
    "bekkenfoto",
    "x-thorax",
];

/// Conclusion cues of a radiology report.
pub(crate) static RADIOLOGY_CONCLUSION: &[&str] = &[
    "conclusie",
    "concluderend",
    "samenvattend",
    "geen aanwijzingen voor",
    "geen aanwijzing voor",
    "passend bij",
    "past bij",
    "verdacht voor",
    "verdenking",
    "suspect",
    "geen fractuur",
    "fractuur",
    "geen afwijkingen",
    "geen bijzonderheden",
    "beeld van",
    "differentiaal*",
    "advies",
    "follow-up",
];

/// Action cues of meeting minutes.
pub(crate) static ACTION: &[&str] = &[
    "we gaan",
    "gaan we",
    "actie",
    "acties",
    "afgesproken",
    "we spreken af",
    "spreken we af",
    "afspraak is",
    "voor volgende week",
    "volgende week",
    "uiterlijk",
    "deadline",
    "zal",
    "zullen",
    "ik pak",
    "pakt",
    "oppakken",
    "regelt",
    "regel ik",
    "gaat regelen",
    "neemt contact",
    "stuurt",
    "stuur ik",
    "maakt",
    "plant",
    "plannen",
    "inplannen",
    "zorgt voor",
    "zorg ik",
    "checkt",
    "uitzoeken",
    "zoekt uit",
    "vóór",
    "voor vrijdag",
    "voor maandag",
    "agenda",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cue_syntax() {
        assert!(has_cue("Ik hoest al weken", "hoest*"));
        assert!(has_cue("Ik heb een blaasontsteking", "*ontsteking"));
        assert!(!has_cue("Ik blik terug", "ik heb"));
        assert!(!has_cue("terugkomen", "rug*"));
        assert!(has_cue("Specifiek IgE verhoogd", "ige"));
        assert!(at_start("Nou, ja", "nou") && !at_start(" nou", "nou"));
        assert!(starts_with_cue("  Heeft u koorts?", "heeft u"));
    }

    #[test]
    fn measurements() {
        assert!(has_measurement("Bloeddruk 140/90."));
        assert!(has_measurement("De temperatuur is 38,5 graden."));
        assert!(has_measurement("Saturatie 98%."));
        assert!(has_measurement("De bloeddruk is 148 over 92."));
        assert!(!has_measurement("Drie keer per dag 500 mg."));
        assert!(!has_measurement("Over 2 weken terug."));
    }

    /// The indexed count agrees with matching every cue one by one.
    #[test]
    fn the_index_counts_like_the_plain_matcher() {
        let sentences = [
            "Ik schrijf u amoxicilline voor, drie keer per dag 500 mg, en over twee weken controle.",
            "Bij auscultatie hoor ik geen crepitaties; de buik is soepel, geen drukpijn.",
            "Dit past bij een virale infectie, waarschijnlijk een blaasontsteking i.v.m. de klachten.",
            "Eh, dokter, ik heb sinds gisteren 's avonds last van mijn rug en ik slaap slecht.",
            "u uw U, UW: 'S avonds, ige IgE, x10 µmol.",
        ];
        for list in registered() {
            for s in sentences {
                let words = Words::new(s);
                let plain = list.iter().filter(|c| words.has(c)).count() as u32;
                assert_eq!(count(s, list), plain, "{s}");
            }
        }
    }
}
