//! The Dutch cue lists of the rules engine, kept as data, and the matcher that finds them.
//!
//! A cue is a lowercase word or phrase matched ASCII-case-insensitively at a word start and, by
//! default, ending at a word end. Two markers widen a cue: a trailing `*` makes it a prefix
//! (`hoest*` matches "hoest", "hoesten", "hoestbui"), a leading `*` lets it start inside a word
//! (`*ontsteking` matches "blaasontsteking"). Matching allocates nothing.
//!
//! The lists were written from the NHG SOEP conventions and general-practice language, not from
//! the test set: S is what the patient tells, O only what was examined or measured, E the
//! assessment, P the agreed plan. Every list is a slice of `&'static str`, so adding a cue is a
//! one-line change.

/// True when `cue` occurs in `text` (see the module doc for the cue syntax).
pub(crate) fn has_cue(text: &str, cue: &str) -> bool {
    find_cue(text, cue).is_some()
}

/// The byte offset of the first match of `cue` in `text`.
pub(crate) fn find_cue(text: &str, cue: &str) -> Option<usize> {
    let (cue, infix) = match cue.strip_prefix('*') {
        Some(rest) => (rest, true),
        None => (cue, false),
    };
    let (needle, prefix) = match cue.strip_suffix('*') {
        Some(rest) => (rest.as_bytes(), true),
        None => (cue.as_bytes(), false),
    };
    let hay = text.as_bytes();
    let (&first, &last) = (needle.first()?, needle.last()?);
    if needle.len() > hay.len() {
        return None;
    }
    let check_start = !infix && is_word_byte(first);
    let check_end = !prefix && is_word_byte(last);
    (0..=hay.len() - needle.len()).find(|&i| {
        hay[i].eq_ignore_ascii_case(&first)
            && (!check_start || i == 0 || !is_word_byte(hay[i - 1]))
            && hay[i..i + needle.len()].eq_ignore_ascii_case(needle)
            && (!check_end || i + needle.len() == hay.len() || !is_word_byte(hay[i + needle.len()]))
    })
}

/// True when `text`, after leading spaces and punctuation, starts with `cue`.
pub(crate) fn starts_with_cue(text: &str, cue: &str) -> bool {
    let t = text.trim_start_matches(|c: char| !c.is_alphanumeric());
    find_cue(t, cue) == Some(0)
}

/// How many cues of `list` occur in `text`.
pub(crate) fn count(text: &str, list: &[&str]) -> u32 {
    list.iter().filter(|c| has_cue(text, c)).count() as u32
}

/// True when any cue of `list` occurs in `text`.
pub(crate) fn any(text: &str, list: &[&str]) -> bool {
    list.iter().any(|c| has_cue(text, c))
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
    "mmhg", "graden", "mmol*", "kilo", "kg", "cm", "slagen", "per minuut", "over", "procent", "bpm",
    "punten", "µmol*", "umol*", "g/l", "x10*",
];

/// Whole-utterance pleasantries and the conversation's frame: dropped unless clinical cues outweigh.
pub(crate) const GREETING: &[&str] = &[
    "goedemorgen", "goedemiddag", "goedenavond", "hallo", "hoi", "dag meneer", "dag mevrouw",
    "dag dokter", "tot ziens", "tot de volgende keer", "doei", "fijne dag", "prettige dag",
    "goed weekend", "fijn weekend", "dank u wel", "dank je wel", "dankjewel", "dankuwel",
    "bedankt", "graag gedaan", "gaat u zitten", "neemt u plaats", "komt u binnen", "komt u verder",
    "wat kan ik voor u doen", "waar kan ik u mee helpen", "wat brengt u hier", "waar komt u voor",
    "vertelt u maar", "vertel eens", "vertelt u eens", "zegt u het maar", "hoe gaat het met u",
    "hoe is het", "lang niet gezien", "het weer", "parkeren", "wachtkamer", "beterschap",
    "sterkte", "geen probleem", "momentje", "ogenblikje", "heeft u nog vragen", "nog vragen",
    "is dat duidelijk", "is alles duidelijk", "begrijpt u", "snapt u", "is dat goed",
    "vindt u dat goed", "lijkt u dat goed", "spreekt u mij", "met dokter", "u spreekt met",
    "u belt", "ik bel u", "ik bel over", "ik belde",
];

/// Words that on their own (with fillers) are only an acknowledgement or a bare answer.
pub(crate) const ACK_WORDS: &[&str] = &[
    "ja", "nee", "neen", "oké", "ok", "okay", "goed", "prima", "hmm", "hm", "mm", "eh", "ehm",
    "uh", "uhm", "nou", "precies", "klopt", "juist", "akkoord", "top", "fijn", "duidelijk", "hoor",
    "zeker", "inderdaad", "natuurlijk", "ah", "o", "oh", "zo", "dat", "is", "het", "snap", "ik",
    "begrijp", "dan", "helder", "niet", "wel", "nooit", "soms", "echt", "jawel", "tuurlijk",
];

/// Patient sentences that accept or close the plan rather than tell anything.
pub(crate) const AGREEMENT: &[&str] = &[
    "dat ga ik doen", "dat zal ik doen", "dan doe ik dat", "dat doe ik", "dat is goed",
    "dat lijkt me goed", "dat lijkt me prima", "dat is prima", "dat klinkt goed",
    "dan kom ik terug", "dan bel ik", "dan weet ik het", "dan ga ik", "fijn dat", "dank u",
    "dank je", "bedankt", "ik zal het proberen", "ik ga het proberen", "ik probeer het",
];

/// Opening words of a question, when the transcript lost the question mark.
pub(crate) const QUESTION_START: &[&str] = &[
    "heeft u", "hebt u", "bent u", "is het", "is er", "zijn er", "doet het", "wat", "hoe",
    "waar", "wanneer", "welke", "waarom", "hoelang", "sinds wanneer", "gebruikt u", "neemt u",
    "kunt u", "merkt u", "rookt u", "drinkt u", "slaapt u", "voelt u", "wordt het", "gaat het",
    "heb je", "ben je", "doet u", "had u", "was er", "zit het", "straalt het", "krijgt u",
];

/// Questions that are about the conversation or the plan, not the patient's health: a yes or no
/// after them says nothing for S.
pub(crate) const NON_CLINICAL_QUESTION: &[&str] = &[
    "heeft u nog vragen", "nog vragen", "is dat goed", "is dat duidelijk", "snapt u", "begrijpt u",
    "zullen we", "zal ik", "mag ik", "kan ik", "wilt u", "vindt u", "lukt dat", "lijkt u",
    "is dat oké", "kunt u daarmee", "gaat u", "doet u even", "kunt u even", "wilt u even",
    "ligt u", "zit u", "klopt dat",
];

/// The doctor announcing or directing the examination: no finding yet, so no O.
pub(crate) const ANNOUNCE: &[&str] = &[
    "ik ga even", "ik wil even", "mag ik even", "zal ik even", "gaat u even", "wilt u even",
    "trekt u even", "doet u even", "kunt u even", "ik kijk even", "ik ga u even", "ik ga nu",
    "dan ga ik", "dan gaan we even", "laten we even", "ik ga eens", "gaat u maar", "even kijken",
    "ik ga kijken", "ik ga luisteren", "ik wil kijken", "ik wil luisteren", "zet u", "buigt u",
    "draait u", "tilt u", "kijkt u", "ademt u", "zuchten", "diep in", "mond open", "even liggen",
    "ik meet", "ik ga meten", "ik ga uw", "mag ik uw", "ik voel even", "we gaan even",
];

/// The doctor restating the history ("u heeft dus..."): S.
pub(crate) const RESTATE: &[&str] = &[
    "dus u heeft", "u heeft dus", "u zegt", "als ik het goed begrijp", "als ik u goed begrijp",
    "u vertelt", "u geeft aan", "dus sinds", "dus al", "u bent dus", "dus u bent", "dus het",
];

/// Examination findings and measurements: O (for the doctor's sentences).
pub(crate) const OBJECTIVE: &[&str] = &[
    "bij auscultatie", "bij palpatie", "bij percussie", "bij inspectie", "bij onderzoek",
    "bij lichamelijk onderzoek", "auscultatie", "palpatie", "percussie", "inspectie",
    "ik hoor", "hoor ik", "ik zie", "zie ik", "ik voel", "voel ik", "te zien", "te voelen",
    "te horen", "klinkt", "klinken", "vesiculair", "crepitaties", "rhonchi", "piepende ademhaling",
    "verlengd exspirium", "souffle", "regulair", "irregulair", "geen drukpijn", "drukpijn*",
    "drukpijnlijk", "loslaatpijn", "peritoneale prikkeling", "buik soepel", "soepel", "schoon",
    "rustig", "normaal", "normale", "geen afwijkingen", "afwijkend*", "niet afwijkend",
    "gezwollen", "zwelling", "hematoom", "blauw", "roodheid", "rood", "warm aanvoelend",
    "vochtophoping", "oedeem", "stabiel", "instabiel", "laxiteit", "bewegingsbeperking",
    "beweeglijkheid", "volledige", "beperkt", "pijnlijk bij", "lasègue", "reflexen", "kracht",
    "sensibiliteit", "trommelvlies*", "tonsillen", "amandelen", "keelwand", "beslag",
    "lymfeklier*", "klieren", "pupil*", "temperatuur", "bloeddruk is", "de bloeddruk",
    "uw bloeddruk", "tensie", "pols is", "hartfrequentie", "saturatie", "zuurstof*", "gewicht",
    "weegt", "bmi", "buikomvang", "hba1c", "glucose", "nuchter", "urine is", "in de urine",
    "urinestick", "stickje", "stick", "nitriet", "leukocyten", "erytrocyten", "kweek", "crp",
    "de uitslag", "uitslagen", "laboratorium", "labwaarden", "nierfunctie", "egfr", "cholesterol",
    "ldl", "ecg", "schilfering", "schilferend", "roodheid", "papels", "vesikels", "blaasjes",
    "korstjes", "lichenificatie", "krabeffecten", "eczeemplekken", "huid is", "huid ziet",
    "monofilament", "sensibel", "voetpulsaties", "pulsaties", "enkelreflex", "voorste schuif",
    "schuiflade", "ottawa", "malleolus", "benige drukpijn", "kan steunen", "niet steunen",
    "loopt", "looppatroon", "maakt een", "oogt", "ziet er", "indruk", "alert", "suf", "ziek",
    "niet ziek", "nekstijfheid", "huidturgor", "capillaire refill", "meningeale", "petechiën",
];

/// The doctor's assessment: E. Phrases weigh more than bare diagnosis terms.
pub(crate) const EVALUATION: &[&str] = &[
    "waarschijnlijk", "vermoedelijk", "vermoed", "ik vermoed", "past bij", "passend bij",
    "ik denk dat het", "ik denk dat u", "ik denk dat er", "ik denk dat dit", "ik denk dat je",
    "het lijkt op", "lijkt op een", "het lijkt me", "lijkt het", "verdenking", "verdacht",
    "diagnose", "werkdiagnose", "conclusie", "het gaat om", "het gaat hier om", "het is een",
    "het is geen", "dat is een", "dit is een", "dit zijn", "wijst op", "duidt op",
    "aanwijzingen voor", "geen aanwijzing*", "het beeld van", "een beeld van", "klassiek",
    "typisch", "onschuldig", "niets ernstigs", "niet ernstig", "geen ernstige", "geen teken*",
    "goed ingesteld", "goed geregeld", "onder controle", "niet goed ingesteld", "te hoog",
    "te laag", "nog te hoog", "mooi binnen", "binnen de norm", "ontregeld", "gaat goed",
    "gaat de goede kant", "verbeterd", "vooruitgang", "ik schat in", "mijn inschatting",
    "dat komt door", "komt door", "het komt", "veroorzaakt", "het zit in", "het gaat om een",
    "ik verwacht dat", "zelflimiterend", "vanzelf over", "gaat vanzelf", "u heeft een",
    "heeft u een", "je hebt een", "het is een virus", "dat past", "dat verklaart",
];

/// Diagnosis terms (ICPC-like): a weak E cue on their own.
pub(crate) const DIAGNOSIS_TERMS: &[&str] = &[
    "*ontsteking", "infectie", "*infectie", "virus", "viraal", "virale", "bacterieel",
    "bacteriële", "verkoudheid", "griep", "influenza", "covid", "bronchitis", "pneumonie",
    "longontsteking", "sinusitis", "otitis", "tonsillitis", "faryngitis", "cystitis",
    "urineweginfectie", "eczeem", "dermatitis", "constitutioneel", "contacteczeem",
    "psoriasis", "schimmel*", "impetigo", "verstuiking", "distorsie", "inversietrauma",
    "enkelbandletsel", "kneuzing", "fractuur", "breuk", "lumbago", "spit", "aspecifieke",
    "hernia", "radiculair", "ischias", "hypertensie", "hoge bloeddruk", "diabetes",
    "diabetes mellitus", "dm2", "hypoglykemie", "angststoornis", "paniekstoornis",
    "angstklachten", "slaapstoornis", "insomnie", "slapeloosheid", "depressie", "depressieve",
    "somberheidsklachten", "burn-out", "burnout", "overspannen*", "surmenage",
    "stressklachten", "spanningsklachten", "migraine", "spanningshoofdpijn", "gastro-enteritis",
    "buikgriep", "reflux", "astma", "copd", "exacerbatie", "koortsstuip*", "waterpokken",
    "krentenbaard", "artrose", "tendinitis", "bursitis", "mucus", "allergie", "allergische",
    "hooikoorts", "urticaria", "conjunctivitis", "meniscus*", "bandletsel",
];

/// The agreed plan: medication and dosing, prescriptions, follow-up, referral, advice.
pub(crate) const PLAN: &[&str] = &[
    "ik schrijf", "schrijf ik", "voorschrijven", "voorgeschreven", "recept*", "apotheek",
    "mg", "milligram", "gram", "keer per dag", "keer daags", "maal daags", "x per dag",
    "per dag", "dd", "tablet*", "capsule*", "zakje*", "druppel*", "neusspray", "zalf",
    "crème", "creme", "smeren", "insmeren", "vet*", "innemen", "inneemt", "slikken",
    "paracetamol", "ibuprofen", "naproxen", "diclofenac", "amoxicilline", "amoxi",
    "nitrofurantoïne", "nitrofurantoine", "fosfomycine", "doxycycline", "azitromycine",
    "hydrocortison", "triamcinolon", "betamethason", "cetirizine", "loratadine",
    "salbutamol", "amlodipine", "lisinopril", "enalapril", "losartan", "hydrochloorthiazide",
    "metoprolol", "metformine", "gliclazide", "insuline", "omeprazol", "pantoprazol",
    "sertraline", "citalopram", "oxazepam", "temazepam", "xylometazoline", "antibiotic*",
    "kuur", "inhalator", "puffer", "voorzetkamer", "terugkomen", "terug komen", "kom terug",
    "komt u terug", "kom dan terug", "terugzien", "zie ik u", "zien we elkaar", "belt u",
    "bel dan", "bel gerust", "belt u dan", "neemt u contact", "contact opnemen", "controle",
    "controleren", "over een week", "over twee weken", "over drie weken", "over vier weken",
    "over zes weken", "over een maand", "over drie maanden", "over een half jaar",
    "volgende week", "over een paar dagen", "over een dag of", "verwijs", "verwijzen",
    "verwijzing", "doorverwijzen", "fysiotherapeut", "fysiotherapie", "fysio", "oefentherapeut",
    "psycholoog", "poh", "praktijkondersteuner", "diëtist", "podotherapeut", "specialist",
    "dermatoloog", "orthopeed", "internist", "kinderarts", "aanvragen", "vraag ik",
    "ik vraag", "laten prikken", "laten doen", "bloed laten", "ik stuur", "stuur ik",
    "advies", "adviseer", "ik raad", "raad ik", "aanraden", "probeer", "probeert u",
    "u kunt", "u mag", "je mag", "je kunt", "het is verstandig", "het beste", "het liefst",
    "rust houden", "rustig aan", "koelen", "ijs", "hoog leggen", "bewegen", "blijven bewegen",
    "in beweging", "veel drinken", "goed drinken", "afspraak", "folder", "thuisarts",
    "we gaan", "gaan we", "we spreken af", "spreken we af", "afgesproken", "starten",
    "beginnen met", "begint u", "ophogen", "verhogen", "verlagen", "stoppen met", "afbouwen",
    "doorgaan met", "gaat u door", "blijft u", "dosis", "dosering", "als het niet beter",
    "als het erger", "als het niet over", "als de klachten", "als u koorts", "als er",
    "alarmsymptomen", "zelfzorg", "oefeningen", "gesprekken", "brace", "tape", "bandage",
    "krukken", "zwachtel", "ontspanningsoefeningen", "slaaphygiëne", "dagboek", "voor de nacht",
    "voor het slapen", "'s ochtends", "'s avonds innemen", "tot de klachten", "ziekmelden",
    "bedrijfsarts", "laboratorium", "nuchter bloed", "vaccinatie", "griepprik", "meten",
];

/// Patient complaint language: strengthens S for patients and for unknown speakers.
pub(crate) const SUBJECTIVE: &[&str] = &[
    "ik heb", "ik had", "heb ik", "had ik", "mijn", "me", "mij", "ik ben", "ik voel", "ik kan",
    "ik krijg", "ik merk", "ik word", "ik slaap", "ik lig", "ik loop", "ik hoest", "ik moet",
    "het doet pijn", "doet pijn", "pijn", "last", "klachten", "klacht", "sinds", "al een",
    "al twee", "al drie", "dagen", "weken", "maanden", "gisteren", "vannacht", "vanochtend",
    "vorige week", "koorts", "hoest*", "verkouden", "snot*", "keelpijn", "misselijk",
    "overgeven", "moe", "duizelig", "jeuk*", "branderig", "vaak plassen", "bang", "zorgen",
    "ongerust", "geprobeerd", "genomen", "geslikt", "gesmeerd", "hielp", "helpt", "werkt niet",
    "slecht", "erger", "minder", "stijf", "zeurend", "stekend", "uitstralen", "straalt",
    "gevallen", "verzwikt", "getild", "gebeurd", "ging", "kreeg", "werk", "thuis",
];

/// Mood, sleep and stress: S content in a POH-GGZ consult.
pub(crate) const GGZ_SUBJECTIVE: &[&str] = &[
    "slaap*", "slapen", "sliep", "wakker", "somber*", "stress*", "angst*", "paniek*", "pieker*",
    "onrust*", "gespannen", "moe", "uitgeput", "huil*", "zin in", "concentr*", "prikkelbaar",
    "geïrriteerd", "zorgen", "spanning", "hartkloppingen", "benauwd", "vermijd*", "werk",
    "relatie", "eenzaam", "rouw", "alcohol", "blowen",
];

/// The observed presentation and questionnaire scores: O in a POH-GGZ consult.
pub(crate) const GGZ_OBJECTIVE: &[&str] = &[
    "maakt een", "indruk", "oogt", "oogcontact", "affect", "stemming is", "spreekt", "spraak",
    "verzorgd", "psychomotor*", "vlak", "adequaat", "coherent", "suïcid*", "vragenlijst",
    "score", "scoort", "4dkl", "phq*", "gad*", "distress", "somatisatie", "punten",
];

/// Markers that the conversation moves to another problem.
pub(crate) const TOPIC_CHANGE: &[&str] = &[
    "nog iets anders", "iets anders", "nog een vraag", "nog een ander", "nog een klacht",
    "tweede punt", "ander punt", "andere klacht", "ander probleem", "ik had nog", "ik heb ook nog",
    "waar ik ook nog", "ik wilde ook nog", "ik wil ook nog", "dan nog", "verder nog",
    "dan kom ik bij", "dan gaan we naar", "wat betreft",
];

/// Topic-change markers that count only at the start of a sentence ("Dan uw knie.").
pub(crate) const TOPIC_CHANGE_START: &[&str] = &[
    "en dan uw", "dan uw", "en dan de", "dan de", "nu uw", "en uw", "dan over",
];

/// Referral cues: the reason a specialist letter is written.
pub(crate) const REFERRAL: &[&str] = &[
    "verwijz*", "verwezen", "reden van", "in verband met", "i.v.m.", "ivm", "vanwege",
    "graag uw", "verzoek", "beoordeling", "second opinion", "komt voor", "verwezen door",
];

/// Allergy history cues (kinderarts-allergoloog letters).
pub(crate) const ALLERGY: &[&str] = &[
    "allerg*", "reactie op", "pinda*", "noten", "ei", "eieren", "koemelk*", "melk", "tarwe",
    "soja", "vis", "schaaldieren", "eczeem", "astma", "hooikoorts", "netelroos", "galbulten",
    "urticaria", "zwelling van", "opgezwollen", "lippen", "epipen", "adrenaline", "atop*",
    "huisstofmijt", "pollen", "gras", "berk", "kat", "hond", "antihistamin*",
];

/// Additional tests: "Aanvullend onderzoek" in a specialist letter.
pub(crate) const ADDITIONAL_TESTS: &[&str] = &[
    "ige", "rast", "priktest", "huidtest", "huidpriktest", "bloedonderzoek", "lab*",
    "uitslag*", "provocatie*", "spirometrie", "longfunctie", "bloedbeeld", "crp", "kweek",
];

/// Imaging: "Beeldvorming" in a specialist letter.
pub(crate) const IMAGING: &[&str] = &[
    "röntgen*", "rontgen*", "foto", "foto's", "echo*", "mri", "ct", "scan", "opname*",
    "bekkenfoto", "x-thorax",
];

/// Conclusion cues of a radiology report.
pub(crate) const RADIOLOGY_CONCLUSION: &[&str] = &[
    "conclusie", "concluderend", "samenvattend", "geen aanwijzingen voor", "geen aanwijzing voor",
    "passend bij", "past bij", "verdacht voor", "verdenking", "suspect", "geen fractuur",
    "fractuur", "geen afwijkingen", "geen bijzonderheden", "beeld van", "differentiaal*",
    "advies", "follow-up",
];

/// Action cues of meeting minutes.
pub(crate) const ACTION: &[&str] = &[
    "we gaan", "gaan we", "actie", "acties", "afgesproken", "we spreken af", "spreken we af",
    "afspraak is", "voor volgende week", "volgende week", "uiterlijk", "deadline", "zal",
    "zullen", "ik pak", "pakt", "oppakken", "regelt", "regel ik", "gaat regelen", "neemt contact",
    "stuurt", "stuur ik", "maakt", "plant", "plannen", "inplannen", "zorgt voor", "zorg ik",
    "checkt", "uitzoeken", "zoekt uit", "vóór", "voor vrijdag", "voor maandag", "agenda",
];
