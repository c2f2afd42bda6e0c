//! The clinical register: a placed sentence rewritten the way a GP writes it in the record.
//!
//! Telegram style, rule by rule and only where the rule is safe:
//! - typed speaker labels ("Patiënt:", "huisarts:") and spoken fillers ("eh", "nou", "eigenlijk",
//!   "hoor", "gewoon") go, wherever they stand;
//! - small numbers before a unit become digits ("drie dagen" → "3 dagen"), "148 over 92" becomes
//!   "148/92" and "98 procent" "98%";
//! - the patient's first person is rewritten or trimmed ("Ik heb sinds drie dagen keelpijn" →
//!   "Sinds 3 dagen keelpijn", "slaap ik slecht" → "slaapt slecht", "mijn knie" → "knie");
//! - per field, the spoken openings go: O "De keel is rood" → "Keel rood"; E "De keelpijn is een
//!   virale keelontsteking" → "Virale keelontsteking", "Dit past bij …", "Ik denk dat …"; P "Ik
//!   schrijf u naproxen voor" → "Naproxen", "U kunt …", "Ik verwijs u naar" → "Verwijzing naar".
//!
//! Every rewrite works on whole words, allocates a few short strings per sentence and keeps the
//! engine linear in the transcript.

use crate::speech::Speaker;

use super::Section;
use super::lexicon::{COPULAS, VERBS_AFTER_ER};
use super::{corrections, cues, labels, numbers, style};

/// Adverbs of degree: "gewoon" after one is the adjective ("heel gewoon"), no filler.
pub(crate) const DEGREE: &[&str] = &["heel", "zo", "vrij", "best", "erg", "helemaal", "nogal"];

/// Fillers dropped wherever they stand (whole words, with the comma that may follow them).
const INNER_FILLERS: &[&str] = &[
    "eh",
    "ehm",
    "uh",
    "uhm",
    "nou ja",
    "nou",
    "eigenlijk",
    "hoor",
    "gewoon",
    "zeg maar",
    "hè",
    "tja",
    "eerlijk gezegd",
    "echt",
    "even",
    "au",
    "haha",
    "trouwens",
    "ik weet het",
];

/// Units after which "een" is a number ("een week hoofdpijn" keeps its article).
const NUMBER_UNITS: &[&str] = &[
    "dag",
    "dagen",
    "week",
    "weken",
    "maand",
    "maanden",
    "jaar",
    "keer",
    "uur",
    "uren",
    "nachten",
    "kilo",
    "stappen",
    "punten",
    "minuten",
    "tabletten",
    "glazen",
    "koppen",
    "sigaretten",
    "per",
];

/// Words that join the story on ("En dan …", "Ten eerste …"), dropped at the start of S.
const CONNECTIVES: &[&str] =
    &["en dan", "en als laatste", "als laatste", "ten eerste", "ten tweede", "ten derde", "en", "dan", "verder", "o", "oh"];

/// First-person openings of the patient's story, dropped whole (longest first).
const S_OPENINGS: &[&str] = &[
    "heb ik ook nog",
    "heb ik ook",
    "heb ik nog",
    "heb ik",
    "ik heb ook nog",
    "ik heb ook",
    "ik heb nog",
    "ik heb al",
    "ik heb",
    "ik had",
    "ik ben al",
    "ik ben ook",
    "ik ben",
    "ik voel me",
    "ik merk dat",
    "ik merk",
    "dus u heeft",
    "dus u bent",
    "u heeft",
    "u hebt",
    "u bent",
];

/// Openings of what was examined, dropped whole.
const O_OPENINGS: &[&str] = &[
    "ik zie",
    "ik hoor",
    "ik voel",
    "ik vind",
    "ik meet",
    "ik zie wel",
    "we zien",
    "we horen",
    "we voelen",
    "we vinden",
    "u bent",
    "hier",
];

/// Openings of the clinician's assessment, dropped whole (longest first). "Waarschijnlijk" stays:
/// the uncertainty belongs in the record.
const E_OPENINGS: &[&str] = &[
    // "Wat ik denk: dit past het best bij een cyste" → "Dit past het best bij een cyste"
    "wat ik denk is",
    "wat ik denk",
    "het beeld past het meest bij",
    "het beeld past bij",
    "dit past het meest bij",
    "dit past bij",
    "dat past bij",
    "het past bij",
    "past bij",
    "ik denk dat het",
    "ik denk dat dit",
    "het gaat om",
    "het lijkt op",
    "het klinkt als",
    "dat klinkt als",
    "het zijn",
    "dit zijn",
    "dat zijn",
    "dit is",
    "dat is",
    "het is",
    "u heeft",
    "ze heeft",
    "hij heeft",
];

/// What a patient says to the clinician along the way, which the history does without: "Nu u
/// het zegt, vorig jaar …", "Slecht, ik strompel zoals u ziet", "u hoort het al, mijn stem is
/// schor"; what they did as told, as advised ("zoals u had gezegd" → "zoals geadviseerd").
/// The speaker's reserve, said without the speaker: "Niet gevallen voor zover ik weet" → "… voor
/// zover bekend", where conjugating the word before "ik" made "zovert weet".
const AS_FAR_AS: &[(&str, &str)] = &[
    ("voor zover ik weet", "voor zover bekend"),
    ("voor zover ik het weet", "voor zover bekend"),
    ("voor zover wij weten", "voor zover bekend"),
    ("voor zover we weten", "voor zover bekend"),
    ("voor zover ik kan zien", "voor zover te zien"),
    ("voor zover ik zie", "voor zover te zien"),
    ("voor zover ik kan beoordelen", "voor zover te beoordelen"),
    ("voor zover ik me herinner", "voor zover bekend"),
    ("voor zover ik mij herinner", "voor zover bekend"),
];

/// The clinician's own words around a finding, an assessment or a plan, as the record says them:
/// "Dit maakt me ongerust" → "Dit is zorgwekkend", "Ik stel voor dat …" → "Voorstel dat …", "op
/// mijn spreekuur" → "op het spreekuur".
const CLINICIAN_ASIDES: &[(&str, &str)] = &[
    // the patient's age, where "uw" or "jouw" going would leave "op leeftijd" (old age)
    ("op uw leeftijd", "op deze leeftijd"),
    ("op jouw leeftijd", "op deze leeftijd"),
    ("van uw leeftijd", "van deze leeftijd"),
    ("van jouw leeftijd", "van deze leeftijd"),
    ("voor uw leeftijd", "voor deze leeftijd"),
    ("voor jouw leeftijd", "voor deze leeftijd"),
    ("jouw schuld", "de schuld van patiënt"),
    ("uw schuld", "de schuld van patiënt"),
    // what the clinician makes of it, as the record says it, wherever it was placed: "Wat ik hoor,
    // is dat je veel spanning voelt" → "Indruk dat patiënt veel spanning voelt"
    ("wat ik hoor is dat", "indruk dat"),
    ("wat ik zie is dat", "indruk dat"),
    ("mijn indruk is dat", "indruk dat"),
    ("wat ik zie is", "indruk:"),
    ("wat ik hoor is", "indruk:"),
    ("mijn indruk is", "indruk:"),
    ("maakt me grote zorgen", "is zeer zorgwekkend"),
    ("maakt me zorgen", "is zorgwekkend"),
    ("maakt me ongerust", "is zorgwekkend"),
    ("maakt mij ongerust", "is zorgwekkend"),
    ("ik stel voor dat", "voorstel dat"),
    ("ik stel voor om", "voorstel om"),
    ("ik raad aan om", "advies om"),
    ("ik raad u aan om", "advies om"),
    ("ik raad aan", "advies:"),
    ("ik vermoed dat", "vermoeden dat"),
    ("ik denk daarbij aan", "waarschijnlijk"),
    ("dat kan ik niet helemaal uitsluiten", "niet helemaal uit te sluiten"),
    ("dat kan ik niet uitsluiten", "niet uit te sluiten"),
    ("kan ik niet helemaal uitsluiten", "niet helemaal uitgesloten"),
    ("kan ik niet uitsluiten", "niet uitgesloten"),
    ("lijkt het me", "lijkt het"),
    ("lijkt het mij", "lijkt het"),
    // a parent and child addressed together: "komen jullie terug" is the follow-up
    ("komen jullie terug als", "terugkomen als"),
    ("komen jullie terug", "terugkomen"),
    ("jullie terugzien", "terugzien"),
    ("voor jullie allebei", "voor beiden"),
    ("op mijn spreekuur", "op het spreekuur"),
    ("met mijn bevindingen", "met de bevindingen"),
];

/// The clinician reading from the record, said of the record: "Ik zie in het dossier dat u sinds
/// 2019 colitis ulcerosa heeft" → "In het dossier staat dat patiënt sinds 2019 …", "…, zie ik
/// hier." → "…, volgens het dossier." (never "Ziet in het dossier dat …", the clinician's "ik"
/// taken for the patient's).
const RECORD_READS: &[(&str, &str)] = &[
    ("ik zie in het dossier", "in het dossier staat"),
    ("ik zie in uw dossier", "in het dossier staat"),
    ("in het dossier zie ik", "in het dossier staat"),
    ("in uw dossier zie ik", "in het dossier staat"),
    ("ik zie hier dat", "in het dossier staat dat"),
    ("zie ik hier", "volgens het dossier"),
];

const S_ASIDES: &[(&str, &str)] = &[
    ("nu u het zegt", ""),
    ("nu je het zegt", ""),
    ("zoals u ziet", ""),
    ("zoals je ziet", ""),
    ("u hoort het misschien al", ""),
    ("u ziet het al", ""),
    ("je ziet het al", ""),
    ("u hoort het al", ""),
    ("je hoort het al", ""),
    ("als u dat bedoelt", ""),
    ("dat ziet u wel", ""),
    ("zoals u had gezegd", "zoals geadviseerd"),
    ("zoals u heeft gezegd", "zoals geadviseerd"),
    ("zoals u zei", "zoals geadviseerd"),
    ("dank u wel", ""),
    ("dank je wel", ""),
    ("dank u", ""),
    ("dank je", ""),
];

/// Verbs a possessed noun does itself, with no object: after "je" and a noun they make the "je"
/// whose ("als je vriend ook stopt", "wanneer je cyclus begint"), where "krijgt" or "neemt" make
/// it the subject ("als je koorts krijgt").
const DONE_BY_A_NOUN: &[&str] = &[
    "begint",
    "stopt",
    "verandert",
    "verdwijnt",
    "wisselt",
    "stijgt",
    "daalt",
    "zakt",
    "groeit",
    "ontstaat",
    "verergert",
    "toeneemt",
    "afneemt",
    "meevalt",
    "tegenvalt",
    "terugkomt",
    "overgaat",
    "doorgaat",
    "verschuift",
    "uitblijft",
    "wegblijft",
];

/// Words after a "je" that make it the subject, not whose: adverbs, pronouns, articles,
/// prepositions and the states a clause names ("als je niet kunt slapen", "als je hem vergeet",
/// "als je somber wordt").
const NOT_WHOSE: &[&str] = &[
    "niet",
    "als",
    "ook",
    "nog",
    "al",
    "er",
    "het",
    "dat",
    "dit",
    "dan",
    "zelf",
    "weer",
    "toch",
    "nu",
    "meteen",
    "goed",
    "gewoon",
    "een",
    "'s",
    "minder",
    "meer",
    "zo",
    "daar",
    "hier",
    "geen",
    "ergens",
    "iets",
    "niets",
    "veel",
    "te",
    "de",
    "hem",
    "haar",
    "ze",
    "die",
    "deze",
    "zich",
    "jezelf",
    "je",
    "naar",
    "van",
    "aan",
    "bij",
    "voor",
    "om",
    "over",
    "uit",
    "binnen",
    "na",
    "tegen",
    "tijdens",
    "zonder",
    "in",
    "op",
    "met",
    "somber",
    "ouder",
    "beter",
    "slechter",
    "ziek",
    "moe",
    "misselijk",
    "benauwd",
    "duizelig",
    "zwanger",
    "bang",
    "alleen",
    "wakker",
    "thuis",
    "echt",
    "eerder",
    "later",
    "vaker",
    "vanavond",
    "morgen",
    "straks",
    "toen",
    "daarvoor",
    "daarna",
    "vroeger",
    "vandaag",
    "gisteren",
    "soms",
    "vaak",
    "altijd",
    "nooit",
    "wel",
];

/// Verbs of what the body or a child does, after which a closing "gewoon" says it goes normally
/// ("plassen gaat gewoon", "ze speelt gewoon"); after "mag" or "kan" it is "just" ("dat mag
/// gewoon") and goes as a filler.
const FUNCTIONING: &[&str] = &[
    "gaat",
    "gaan",
    "ging",
    "loopt",
    "lopen",
    "liep",
    "praat",
    "praten",
    "drinkt",
    "drinken",
    "eet",
    "eten",
    "speelt",
    "spelen",
    "poept",
    "poepen",
    "plast",
    "plassen",
    "ademt",
    "ademen",
    "slaapt",
    "slapen",
    "beweegt",
    "bewegen",
    "werkt",
    "werken",
    "groeit",
    "reageert",
    "functioneert",
    "doen",
    "doet",
];

/// Words put before the verb that would read as its subject where the patient's "ik" after the
/// verb were left out ("dat wilde ik vragen", "daarvoor kom ik niet").
const FRONTED_OBJECTS: &[&str] =
    &["dat", "dit", "die", "daar", "daarvoor", "daarom", "daardoor", "daarna", "daarbij", "daarmee", "dan", "toen", "zo", "het"];

/// Openings of the plan, each with what replaces it (longest first).
const P_OPENINGS: &[(&str, &str)] = &[
    ("mijn advies is om", "advies:"),
    ("mijn advies is", "advies:"),
    ("mijn voorstel is om", "voorstel:"),
    // "we" with a verb-final clause is the infinitive: "Ik stel voor dat we eerst twee weken
    // afwachten" → "Voorstel: eerst 2 weken afwachten"
    ("mijn voorstel is dat we", "voorstel:"),
    ("ik stel voor dat we", "voorstel:"),
    ("mijn voorstel is dat u", "voorstel dat patiënt"),
    ("ik stel voor dat u", "voorstel dat patiënt"),
    ("het belangrijkste is dat", "advies: zorgen dat"),
    ("dat begrijp ik", ""),
    ("ik wil u graag verwijzen naar", "verwijzing naar"),
    ("ik wil u verwijzen naar", "verwijzing naar"),
    ("ik verwijs u naar", "verwijzing naar"),
    ("ik verwijs u", "verwijzing"),
    ("ik stuur u vandaag door voor", "verwijzing voor"),
    ("ik stuur u door voor", "verwijzing voor"),
    ("ik stuur u door naar", "verwijzing naar"),
    ("ik raad u echt aan om te", ""),
    ("ik raad u aan om te", ""),
    ("ik raad u echt aan om", ""),
    ("ik raad u aan om", ""),
    ("ik adviseer u om", ""),
    ("ik adviseer om", ""),
    ("ik adviseer u", ""),
    ("ik adviseer", ""),
    ("we spreken af dat u", ""),
    ("we spreken af dat", ""),
    ("we gaan er", ""),
    ("we beginnen met", "start"),
    ("ik bespreek u", "overleg"),
    ("we gaan", ""),
    ("ik geef u", ""),
    ("u kunt", ""),
    ("u mag", ""),
    ("u moet", ""),
    ("u krijgt", ""),
    ("probeert u", "probeer"),
    ("het is verstandig", ""),
    ("het belangrijkste is", ""),
];

/// The profession's "we" in findings and assessments, as the record says it: "dat noemen we een
/// kaakklem" → "dat heet een kaakklem", "onder de 30 spreken we van een tekort" → "… is er sprake
/// van een tekort", "dat willen we niet missen" → "dat mag niet gemist worden", "dat weten we nog
/// niet" → "dat is nog niet bekend", "een verhoogde gamma-GT zien we daar vaak bij" → "… komt daar
/// vaak bij voor".
const PROFESSION_WE: &[(&str, &str)] = &[
    ("noemen we", "heet"),
    ("spreken we van", "is er sprake van"),
    ("willen we niet missen", "mag niet gemist worden"),
    ("weten we nog niet", "is nog niet bekend"),
    ("weten we nog lang niet", "is nog lang niet bekend"),
    ("weten we niet", "is niet bekend"),
    ("weten we pas", "is pas bekend"),
    ("we weten nog niet", "het is nog niet bekend"),
    ("we weten niet precies", "het is niet precies bekend"),
    ("we weten niet", "het is niet bekend"),
    ("blijven we het controleren", "blijven controles nodig"),
    // "zeker weten doen we het nog niet" → "zeker is het nog niet"
    ("weten doen we", "is"),
    ("weten kan ik het", "is het"),
    ("wil ik niet afwachten", "niet afwachten"),
    ("zien we daar vaak bij", "komt daar vaak bij voor"),
    ("zien we vaak", "komt vaak voor"),
    ("zien we dat vaker", "komt dat vaker voor"),
    ("zeggen we wel", "genoemd"),
    // "die zien we vaker bij mensen met diabetes" → "die komt vaker voor bij …"
    ("zien we vaker", "komt vaker voor"),
    ("zien we wel meer", "is wel bekend"),
    ("wat we vaak zien", "wat vaak voorkomt"),
    // "voor u streven we naar een HbA1c van 53" → "voor patiënt is het streven een HbA1c van 53"
    ("streven we naar", "is het streven"),
    ("we streven naar", "het streven is"),
    ("dan we willen", "dan gewenst"),
    // "FEV1 78% van wat we bij leeftijd en lengte verwachten"
    ("van wat we verwachten", "van wat verwacht wordt"),
    ("van wat we bij leeftijd en lengte verwachten", "van wat bij leeftijd en lengte verwacht wordt"),
];

/// The infinitives [`P_PHRASES`] puts in a finite verb's place, which go to their clause's end.
const MOVABLE_INFINITIVES: &[&str] = &["bellen", "terugbellen", "terugkomen"];

/// Polite forms that open the plan, as the imperative the record uses ("Belt u direct de
/// praktijk" → "Bel direct de praktijk").
const P_IMPERATIVES: &[(&str, &str)] =
    &[("belt u", "bel"), ("komt u", "kom"), ("houdt u", "houd"), ("blijft u", "blijf"), ("gebruikt u", "gebruik"), ("drinkt u", "drink")];

/// Spoken plan phrases rewritten in the middle of a sentence.
const P_PHRASES: &[(&str, &str)] = &[
    // a self-correction's "laten we zeggen" is no plan of its own
    ("laten we zeggen", ""),
    ("komt u terug", "terugkomen"),
    ("kom dan terug", "terugkomen"),
    ("belt u dan terug", "terugbellen"),
    ("belt u terug", "terugbellen"),
    ("belt u dan", "bellen"),
    ("belt u ons", "bellen"),
    ("belt u direct", "direct bellen"),
    ("belt u meteen", "meteen bellen"),
    ("belt u", "bellen"),
    ("neemt u contact op", "contact opnemen"),
    ("neemt u dan contact op", "contact opnemen"),
    ("zie ik u weer", "controle"),
    ("zie ik u terug", "controle"),
    ("zien we elkaar weer", "controle"),
    ("wil ik u terugzien", "controle"),
    ("bel ik u op", "telefonisch contact"),
    ("bel ik u", "telefonisch contact"),
    ("raad ik af", "afgeraden"),
    ("raad ik u af", "afgeraden"),
    ("raad ik je af", "afgeraden"),
    ("ik verwijs u naar", "verwijzing naar"),
    ("verwijs ik u naar", "verwijzing naar"),
    ("ik geef u", ""),
    ("zou ik", ""),
    ("kunnen we", ""),
    ("gaan we", ""),
    ("adviseer ik", "advies"),
    // "En ik raad aan om te stoppen met roken" → "En geadviseerd om te stoppen met roken"
    ("ik raad aan", "geadviseerd"),
    ("ik raad je aan", "geadviseerd"),
    ("ik raad u aan", "geadviseerd"),
    // "Het helpt mij als u een filmpje maakt" → "Het helpt als patiënt een filmpje maakt"
    ("het helpt mij als", "het helpt als"),
    ("het helpt me als", "het helpt als"),
    ("raad ik aan", "geadviseerd"),
    ("raad ik je aan", "geadviseerd"),
    ("raad ik u aan", "geadviseerd"),
    ("kunt u", ""),
    ("mag u", ""),
    ("laat u", ""),
];

/// Conjunctions, and question words, after which "ik" opens a subordinate clause (verb at the
/// end): a question word straight before "ik" never asks (the question would put the verb
/// first: "waarom kom ik?"), it opens an indirect question ("dat is waarom ik kom").
const SUBORDINATE: &[&str] = &[
    "dat",
    "omdat",
    "als",
    "toen",
    "sinds",
    "of",
    "wanneer",
    "zodat",
    "terwijl",
    "nadat",
    "voordat",
    "tot",
    "totdat",
    "zodra",
    "doordat",
    "hoewel",
    "alsof",
    "zolang",
    "zoals",
    "waarom",
    "hoe",
    "waar",
    "wat",
    "wie",
    "hoeveel",
    "waardoor",
    "waarvoor",
    "tenzij",
    "mits",
    "indien",
    "aangezien",
    "opdat",
];

/// The sentence of `section`, spoken by `speaker`, in the clinical register, closed with a full
/// stop. Empty when nothing is left.
pub(crate) fn clinical(section: Section, speaker: Speaker, text: &str) -> String {
    clinical_told(section, speaker, text, false)
}

/// As [`clinical`], where `told` says another tells the history (a parent for a child): the
/// speaker's "ik" is not named "patiënt" ("omdat ik 's nachts steeds wakker word" → "omdat 's
/// nachts steeds wakker wordt", not "omdat patiënt …").
pub(crate) fn clinical_told(section: Section, speaker: Speaker, text: &str, told: bool) -> String {
    // the record writes numbers in digits ("zesenzeventig" → "76"), and a value the speaker
    // corrected once, as corrected ("sinds drie, nee, vier dagen")
    let meant = corrections::values_as_meant(text);
    let t = style::strip_leading_fillers(labels::strip_label(&meant));
    // a value the clinician says before a question is kept on its own: "Ja, met dokter De Jong.
    // Kalium 5,8, zegt u. En de nierfunctie? eGFR 41." keeps the potassium, the question goes as
    // questions go (the patient's is told with what comes before it)
    if section != Section::Subjective
        && let Some((said, asked)) = said_before_question(t)
    {
        let values = said.split_inclusive(['.', '!']).filter(|s| s.bytes().any(|b| b.is_ascii_digit()));
        let told: Vec<String> = values.chain([asked]).map(|s| clinical_told(section, speaker, s.trim(), told)).collect();
        return told.into_iter().filter(|t| !t.is_empty()).collect::<Vec<_>>().join(" ");
    }
    let echoed = without_echo(t);
    let t = echoed.as_deref().unwrap_or(t);
    if section == Section::Subjective
        && speaker == Speaker::Patient
        && let Some((question, rest)) = question_then_more(t)
    {
        // "Is dat iets ernstigs? Ik ben bang dat ik doof word.": the question is told as one,
        // what follows it as the history
        let told = [clinical_told(section, speaker, question, told), clinical_told(section, speaker, rest, told)];
        return told.iter().filter(|t| !t.is_empty()).cloned().collect::<Vec<_>>().join(" ");
    }
    if section != Section::Subjective
        && speaker == Speaker::Zorgverlener
        && let Some((question, rest)) = question_then_more(t)
    {
        // the clinician asking along the way ("En hoe gaat het met uzelf? U ziet er moe uit."):
        // the question belongs nowhere, what follows it is the finding; a request ("Wilt u een
        // plasje opvangen? Dan …") is an instruction, kept
        let lower = question.to_lowercase();
        let asked = match REQUESTS.iter().find_map(|r| lower.strip_prefix(r)) {
            Some(wanted) => clinical_told(section, speaker, &format!("{}.", wanted.trim().trim_end_matches('?')), told),
            _ => String::new(),
        };
        let rest = clinical_told(section, speaker, rest, told);
        return [asked, rest].into_iter().filter(|t| !t.is_empty()).collect::<Vec<_>>().join(" ");
    }
    if section == Section::Plan
        && speaker == Speaker::Zorgverlener
        && t.trim_end().ends_with('?')
        && let Some(wanted) = requested(t)
    {
        // the request as the instruction it is: "Wilt u over vier weken bloed laten prikken?"
        return clinical_told(section, speaker, &format!("{}.", wanted.trim().trim_end_matches('?')), told);
    }
    let mut words = Words::of(t);
    words.told = told;
    words.drop_fillers();
    words.drop_vocative();
    if section == Section::Subjective && speaker == Speaker::Patient && t.trim_end().ends_with('?') {
        return words.patient_question();
    }
    if section != Section::Subjective {
        // The clinician answering the patient: "Nee, dat kan zonder verwijzing."
        words.drop_opening(&["nee", "ja", "jawel"]);
    }
    words.numbers();
    words.value_without_pointer();
    words.replace(AS_FAR_AS);
    // the patient's own self, said of them: "geen plannen om uzelf iets aan te doen" → "… om
    // zichzelf …" (the plan's instructions keep it: "Controleer uzelf op teken")
    if section != Section::Plan {
        words.replace(&[("uzelf", "zichzelf"), ("jezelf", "zichzelf")]);
    }
    match section {
        Section::Subjective => {
            if speaker == Speaker::Zorgverlener {
                words.replace(RECORD_READS);
            }
            words.drop_opening(CONNECTIVES);
            words.drop_opening(S_OPENINGS);
            words.replace(S_ASIDES);
            words.drop_trailing_hedge();
            words.third_person();
        }
        Section::Objective => {
            words.drop_opening(O_OPENINGS);
            words.existential();
            words.drop_measuring_verb();
            words.replace(&[
                ("scoort u", "score"),
                // "Bij het lopen zie ik dat hij …" → "Bij het lopen is te zien dat hij …", never
                // "Bij het lopen dat hij …"
                ("zie ik dat", "is te zien dat"),
                ("hoor ik dat", "is te horen dat"),
                ("voel ik dat", "is te voelen dat"),
                ("vind ik", ""),
                ("zie ik", ""),
                ("hoor ik", ""),
                ("voel ik", ""),
                ("en ik hoor", "en"),
                ("en ik zie", "en"),
                ("en ik voel", "en"),
                // "de enkel-armindex die ik net heb gemeten is 0,9"
                ("die ik net heb gemeten", ""),
                ("die ik zojuist heb gemeten", ""),
                ("die ik heb gemeten", ""),
                ("ik zie geen", "geen"),
                ("ik voel geen", "geen"),
                ("ik hoor geen", "geen"),
                ("ik vind geen", "geen"),
                // "…, ik zie een bolling" → "…, een bolling"
                ("ik zie een", "een"),
                ("ik voel een", "een"),
                ("ik hoor een", "een"),
                ("ik voel nergens", "nergens"),
                ("ik zie nergens", "nergens"),
                ("ik hoor nergens", "nergens"),
                ("op mijn vraag", "op verzoek"),
                ("als ik erop druk", "bij druk"),
                ("als ik druk", "bij druk"),
                ("u maakt", "maakt"),
            ]);
            words.replace(PROFESSION_WE);
            words.drop_perceiving_before_denial();
        }
        Section::Evaluation => {
            words.drop_opening(E_OPENINGS);
            words.no_pause_after_what_i_perceive();
            words.named_as();
            words.unlikely();
            words.existential();
            words.drop_through_past_bij();
            words.copula_with_article();
            words.replace(&[
                ("daar is geen", "geen"),
                ("daarvoor is geen", "geen"),
                ("volgens mij heeft u", "waarschijnlijk"),
                ("volgens mij heb je", "waarschijnlijk"),
                ("volgens mij", "waarschijnlijk"),
                ("lijkt me", "lijkt"),
                ("lijkt mij", "lijkt"),
                ("ik denk dat", "waarschijnlijk dat"),
                ("ik denk aan", "waarschijnlijk"),
                ("we denken dat", "waarschijnlijk dat"),
                ("we denken aan", "waarschijnlijk"),
                ("we gaan uit van", "waarschijnlijk"),
                ("gaan we uit van", "waarschijnlijk"),
                ("ik ga uit van", "waarschijnlijk"),
                ("ga ik uit van", "waarschijnlijk"),
                // "Daar denk ik ook aan: koorts na een reis naar Ghana is malaria …"
                ("daar denk ik ook aan", ""),
                ("daar denk ik aan", ""),
                // after a clause of its own: "Omdat het zo snel is ontstaan, denk ik aan de natte
                // vorm" → "…, waarschijnlijk de natte vorm", never "…, aan de natte vorm"
                ("denk ik aan", "waarschijnlijk"),
                ("denk ik", ""),
                // "Eczeem, dat zien we vaak bij kleine kinderen" → "Eczeem, vaak bij …"
                ("dat zien we", ""),
                ("dit zien we", ""),
                ("ik hoor geen", "geen"),
                ("ik zie geen", "geen"),
                ("ik vind geen", "geen"),
                ("ik voel geen", "geen"),
                ("ik heb geen aanwijzingen", "geen aanwijzingen"),
                // "Blindedarmontsteking vind ik minder waarschijnlijk, omdat …"
                ("vind ik minder waarschijnlijk", "minder waarschijnlijk"),
                ("vind ik niet waarschijnlijk", "niet waarschijnlijk"),
                ("vind ik onwaarschijnlijk", "onwaarschijnlijk"),
                ("vind ik waarschijnlijk", "waarschijnlijk"),
                ("vind ik geen", "geen"),
                ("zie ik geen", "geen"),
                ("hoor ik geen", "geen"),
            ]);
            words.replace(PROFESSION_WE);
            words.drop_perceiving_before_denial();
            words.verb_second_after("waarschijnlijk");
            words.drop_dangling_voor_nodig();
            words.drop_is_of_thought();
        }
        Section::Plan => {
            words.wish_as_advice();
            words.follow_up();
            words.replace_opening(P_IMPERATIVES);
            words.replace_opening(P_OPENINGS);
            words.prescription();
            words.someone_calls_the_patient();
            words.replace(P_PHRASES);
            words.replace(PROFESSION_WE);
        }
    }
    if section != Section::Subjective {
        words.drop_understanding();
        words.replace(CLINICIAN_ASIDES);
    }
    if speaker == Speaker::Patient && section != Section::Subjective {
        words.third_person();
        // a "u" or "je" in an O, E or P sentence is the clinician's, whoever the speaker seemed
        words.record_voice(false, false);
    } else if section != Section::Subjective {
        words.record_voice(section == Section::Plan, section == Section::Evaluation);
    }
    words.reattach_er();
    words.drop_word("uw");
    // and the clinician's "jouw" goes as "uw" does: "met jouw toestemming" → "met toestemming"
    if section != Section::Subjective {
        words.drop_word("jouw");
    }
    // a clause that ends in "is" before the main clause's "is" ("of het hoge bloeddruk is, is pas
    // bekend", "als patiënt eerlijk is, is het eerder …"), whichever rewrite made the two meet:
    // the comma the spoken sentence had no need of
    let out = words.text().replace(" is is ", " is, is ");
    let out = out.trim_start_matches([',', ' ', ';', ':']).trim_start_matches(['—', '-', ' ']);
    if out.chars().filter(|c| c.is_alphanumeric()).count() < 2 {
        return String::new();
    }
    style::finish(out)
}

/// How a clinician asks the patient to do something: "Wilt u een plasje opvangen?".
const REQUESTS: &[&str] = &["wilt u ", "wil je ", "kunt u ", "kun je ", "zou u ", "zou je "];

/// What the clinician's question `s` asks the patient to do, with its verb ("Wilt u over vier
/// weken bloed laten prikken voor het kalium?" → "over vier weken bloed laten prikken voor het
/// kalium?"); `None` for "Wilt u een verwijzing?".
pub(crate) fn requested(s: &str) -> Option<&str> {
    let t = style::strip_leading_fillers(s);
    // "kunt u" asks what the patient can as often as it asks them to ("Kunt u een hele zin
    // uitspreken?"): only a wish is a request
    let wanted = ["wilt u ", "wil je ", "zou u ", "zou je "]
        .iter()
        .find_map(|r| t.get(..r.len()).filter(|opening| opening.eq_ignore_ascii_case(r)).map(|_| &t[r.len()..]))?;
    let lower = wanted.to_lowercase();
    let words: Vec<&str> = lower.trim_end_matches(['?', ' ', '.']).split_whitespace().collect();
    // what is pointed at is done here and now ("Wilt u dit bakje onder uw oor houden?")
    (words.len() >= 3
        && !words.iter().any(|w| matches!(*w, "dit" | "deze" | "hier"))
        && words.iter().any(|w| infinitive_shaped(w.trim_end_matches(','))))
    .then_some(wanted)
}

/// The sentences before a text's first question, and the question with what follows it, where a
/// sentence ends before the question ("Kalium 5,8. En de nierfunctie? eGFR 41.").
fn said_before_question(t: &str) -> Option<(&str, &str)> {
    let asked = t.find('?')?;
    let end = t[..asked].rfind(". ").max(t[..asked].rfind("! "))?;
    let said = t[..=end].trim();
    (said.chars().any(char::is_alphanumeric)).then(|| (said, t[end + 1..].trim()))
}

/// A value repeated back to the one who gave it, without the tag that says so: "Kalium 5,8, zegt
/// u." → "Kalium 5,8."
fn without_echo(t: &str) -> Option<String> {
    let body = t.trim_end().strip_suffix('.')?;
    let value = [", zegt u", ", zei u"].iter().find_map(|tag| body.strip_suffix(tag))?;
    Some(format!("{value}."))
}

/// A line that asks and then goes on ("Moet ik naar het ziekenhuis? Mijn vrouw is nog met de auto
/// weg."), as its first question and what follows it.
fn question_then_more(t: &str) -> Option<(&str, &str)> {
    let at = t.find("? ")?;
    let rest = t[at + 1..].trim();
    (!rest.is_empty()).then(|| (&t[..=at], rest))
}

/// The sentence with its speaker named where they said "ik", the verb in the third person:
/// "Ik bel haar donderdag." → "POH belt haar donderdag.", "Over drie maanden plan ik een
/// controle." → "Over drie maanden plant Assistente een controle.". `None` when the speaker does
/// not speak as "ik" in it.
pub(crate) fn with_speaker(s: &str, speaker: &str) -> Option<String> {
    let mut words = Words::of(s);
    let i = words.words.iter().position(|w| bare(w) == "ik" && tail(w).is_empty())?;
    // (with a capital where "Ik" opened a sentence)
    let name = |w: &str| keep_tail(w, speaker);
    // the word before "ik", where no punctuation parts them
    let joined = (i > 0 && tail(&words.words[i - 1]).is_empty()).then(|| bare(&words.words[i - 1]));
    let subordinate = joined.as_deref().is_some_and(|w| SUBORDINATE.contains(&w));
    // (or a clause that opens with "ik" where a typed transcript left out the punctuation before
    // it: "saturatie 95% ik hoor wat piepen", not "dan hoor ik")
    let coordinated = joined.as_deref().is_some_and(|w| {
        COORDINATORS.contains(&w)
            || (!is_verb(w) && !known_first_person(w) && words.words.get(i + 1).is_some_and(|v| known_first_person(&bare(v))))
    });
    // where the reflexive "me" stands: after "ik" where the verb follows the clause or stands
    // before it ("tenzij ik me zorgen maak", "daar maak ik me zorgen over"), else after the verb
    let mut reflexive_at = i + 1;
    if subordinate {
        // "Sorry dat ik stoor" → "dat POH stoort": the verb closes the clause; where a word was put
        // after it, the verb the register knows before that ("tenzij ik me zorgen maak over
        // veiligheid"), within the one clause ("dat ik de vinger verdoof en het pus laat aflopen"
        // is left alone)
        let last = (i + 1..words.words.len()).find(|&j| !tail(&words.words[j]).is_empty()).unwrap_or(words.words.len() - 1);
        let known = |j: usize| known_first_person(&bare(&words.words[j]));
        let end = if last > i && known(last) {
            last
        } else {
            (i + 1..last)
                .rev()
                .find(|&j| known(j))
                .filter(|&j| !words.words[i + 1..j].iter().any(|w| matches!(bare(w).as_str(), "en" | "maar")))
                .or_else(|| (last > i && is_stem(&bare(&words.words[last]))).then_some(last))?
        };
        words.words[end] = conjugate(&words.words[end]);
        words.words[i] = name(&words.words[i]);
    } else if i + 1 < words.words.len() && (joined.is_none() || coordinated) {
        words.words[i + 1] = conjugate(&words.words[i + 1]);
        words.words[i] = name(&words.words[i]);
        reflexive_at = i + 2;
    } else if joined.is_some() {
        words.words[i - 1] = conjugate(&words.words[i - 1]);
        words.words[i] = name(&words.words[i]);
    } else {
        return None;
    }
    // the speaker's reflexive is the third person's: "Ik maak me zorgen dat …" → "Huisarts maakt
    // zich zorgen dat …" (the verb's "me" after "ik", not an object further on: "als ik fluister,
    // verstaat ze me")
    if reflexive_at < words.words.len() && tail(&words.words[reflexive_at - 1]).is_empty() {
        let third = match bare(&words.words[reflexive_at]).as_str() {
            "me" => Some("zich"),
            "mezelf" => Some("zichzelf"),
            _ => None,
        };
        if let Some(third) = third {
            words.words[reflexive_at] = keep_tail(&words.words[reflexive_at], third);
        }
    }
    Some(words.text())
}

/// A clinician's sentence in the record with every "ik" the register left named as `role`, its
/// verb in the third person ("Ik verdoof de wond en zet er drie hechtingen in." → "Huisarts
/// verdooft de wond en zet er drie hechtingen in."); the sentence as it was where an "ik" cannot
/// be turned round.
pub(crate) fn in_own_name(sentence: &str, role: &str) -> String {
    // one who speaks of "de huisarts" is not the huisarts: "Ik overleg met de huisarts"
    let role = if cues::has_cue(sentence, &format!("de {}", role.to_lowercase())) { "zorgverlener" } else { role };
    let mut out = sentence.to_owned();
    for _ in 0..3 {
        match with_speaker(&out, role) {
            Some(named) => out = named,
            None => break,
        }
    }
    style::capitalised(&out)
}

/// [`in_own_name`] for a sentence whose speaker was guessed as the clinician: only where an "ik"
/// goes with a verb of the clinician's work ("Ik tik op de pols rechts" → "Huisarts tikt op de
/// pols rechts"), since a guess could make the doctor the smoker ("Ik rook een pakje per dag").
pub(crate) fn in_own_name_at_work(sentence: &str, role: &str) -> String {
    let words = Words::of(sentence);
    let at_work = |k: usize| words.words.get(k).is_some_and(|v| CLINICIAN_VERBS.contains(&bare(v).as_str()));
    let works = words.words.iter().enumerate().any(|(i, w)| {
        bare(w) == "ik" && tail(w).is_empty() && (at_work(i + 1) || (i > 0 && tail(&words.words[i - 1]).is_empty() && at_work(i - 1)))
    });
    if works { in_own_name(sentence, role) } else { sentence.to_owned() }
}

/// The first person of verbs of the clinician's work: examining, judging, treating, arranging.
const CLINICIAN_VERBS: &[&str] = &[
    "tik",
    "hoor",
    "luister",
    "voel",
    "meet",
    "bekijk",
    "onderzoek",
    "test",
    "prik",
    "druk",
    "verwacht",
    "verwijs",
    "schrijf",
    "stuur",
    "verhoog",
    "verlaag",
    "overleg",
    "schat",
    "spuit",
    "spoel",
    "hecht",
    "verdoof",
    "druppel",
    "knip",
    "schraap",
    "leer",
];

/// A clinician's sentence in the record with the profession's "we" the register left named as
/// `role`, where its verb is one the register knows and stands beside it in a main clause: "maar
/// we nemen het heel serieus" → "maar huisarts neemt het heel serieus", "Injecties geven we bij
/// de achillespees niet" → "… geeft huisarts …". A "we" in a subordinate clause, or with a verb
/// the register does not know, stays.
pub(crate) fn we_named(sentence: &str, role: &str) -> String {
    let mut words = Words::of(sentence);
    for i in 0..words.words.len() {
        if !matches!(bare(&words.words[i]).as_str(), "we" | "wij") || !tail(&words.words[i]).is_empty() {
            continue;
        }
        if opens_subordinate(&words.words, i) {
            continue;
        }
        let joined = (i > 0 && tail(&words.words[i - 1]).is_empty()).then(|| bare(&words.words[i - 1]));
        let coordinated = joined.as_deref().is_none_or(|w| COORDINATORS.contains(&w));
        let at = if coordinated { i + 1 } else { i - 1 };
        // not the clinician and patient together ("bespreken we samen"), nor a proposal that opens
        // with its verb ("Laten we goed kijken")
        let together = words.words[i..words.clause_end(i)].iter().any(|w| bare(w) == "samen");
        let proposal = !coordinated && (at == 0 || !tail(&words.words[at - 1]).is_empty());
        if together || proposal {
            continue;
        }
        // the plural, which is the infinitive, of a verb the register knows
        let Some(verb) = words.words.get(at).map(|w| bare(w)).and_then(|w| finite(&w).filter(|f| f.inf == w)) else { continue };
        words.words[at] = keep_tail(&words.words[at], &verb.third);
        words.words[i] = keep_tail(&words.words[i], role);
    }
    words.text()
}

/// A relative's history told beside the patient's own ("Echtgenote: Ik tel dan tot twintig"), in
/// the record as theirs: their "ik" named ("Echtgenote telt dan tot 20"), a sentence that does
/// not name them marked ("Volgens echtgenote: hij snurkt al jaren").
pub(crate) fn told_by_relative(sentence: &str, relative: &str) -> String {
    let named = in_own_name(sentence, relative);
    let text = clinical(Section::Subjective, Speaker::Patient, &named);
    if text.is_empty() || cues::has_cue(&text, relative) {
        return text;
    }
    // lower case after the colon, but a name keeps its capital
    let first = text.split_whitespace().next().map(bare).unwrap_or_default();
    let rest = if FUNCTION_OPENERS.contains(&first.as_str()) { style::lower_first(&text) } else { text };
    format!("Volgens {relative}: {rest}")
}

/// Words that open a sentence and are no name: written in lower case after a colon.
const FUNCTION_OPENERS: &[&str] = &[
    "hij", "ze", "zij", "het", "de", "een", "er", "dat", "die", "dit", "dan", "als", "sinds", "soms", "al", "ook", "vooral", "nu",
    "eerder", "altijd", "nooit", "vaak", "niet", "geen", "zijn", "haar", "'s", "omdat", "want", "maar", "en", "toen", "ja", "nee",
];

/// `text`, a clinician's words, with the addressee named: every "u" the register left is the
/// patient, and becomes "patiënt" with its verb in the third person ("Daarnaast zet huisarts u
/// over op Spiolto" → "… zet huisarts patiënt over op Spiolto", "waarbij u er niet meer wilt
/// zijn" → "waarbij patiënt er niet meer wil zijn"). A quote is left as it was said.
pub(crate) fn addressee_named(text: &str) -> String {
    addressee_named_as(text, "patiënt", None)
}

/// `text`, the patient's words, with the clinician they address named as `role` where a
/// preposition or a clause's opening word stands before the "u" ("vorige week ben ik bij u
/// geweest" → "… bij huisarts geweest", "die u heeft voorgeschreven" → "die huisarts heeft
/// voorgeschreven"). After a verb whose subject the history left out, "u" stays: "Wilde u ook
/// vragen" made "Wilde huisarts ook vragen" would turn who asks round.
pub(crate) fn clinician_named(text: &str, role: &str) -> String {
    addressee_named_as(text, role, Some(BEFORE_THE_CLINICIAN))
}

/// `text`, a clinician's finding, assessment or plan, with the practice and the clinician named
/// where they spoke of themselves as the one to call or come back to: "onze praktijkondersteuner"
/// → "de praktijkondersteuner", "bel ons" → "bel de praktijk", "bel me over een week" → "bel de
/// huisarts over een week", "bij mij of onze POH" → "bij de huisarts of de POH". A "me" or "ons"
/// in any other place ("tussen ons", "lacht naar me") is left as said. A quote is left as it was
/// said.
pub(crate) fn practice_named(text: &str, role: &str) -> String {
    let mut words = Words::of(text);
    let mut named = false;
    for (i, outside) in words.outside_quotes().into_iter().enumerate() {
        let w = bare(&words.words[i]);
        // the word before and after, where no punctuation parts them
        let prev = (i > 0 && tail(&words.words[i - 1]).is_empty()).then(|| bare(&words.words[i - 1]));
        let next = (tail(&words.words[i]).is_empty()).then(|| words.words.get(i + 1).map(|n| bare(n))).flatten();
        let before = |list: &[&str]| prev.as_deref().is_some_and(|p| list.contains(&p));
        // the verb after it, or after an adverb or two ("mij gerust bellen", "mij dan direct
        // bellen")
        let adverbs = (i + 1..words.words.len())
            .take_while(|&k| tail(&words.words[k - 1]).is_empty() && CONTACT_ADVERBS.contains(&bare(&words.words[k]).as_str()))
            .take(2)
            .count();
        let then = (adverbs > 0 && tail(&words.words[i + adverbs]).is_empty())
            .then(|| words.words.get(i + adverbs + 1).map(|n| bare(n)))
            .flatten();
        let after = |list: &[&str]| next.iter().chain(&then).any(|n| list.contains(&n.as_str()));
        // "laat het me dan weten": the one told is the one to tell
        let let_know = prev.as_deref() == Some("het") && i >= 2 && matches!(bare(&words.words[i - 2]).as_str(), "laat" | "laten");
        let contact = before(CONTACT_BEFORE) || after(CONTACT_AFTER) || let_know;
        let new = match w.as_str() {
            _ if !outside => None,
            "onze" if next.is_some() => Some("de".to_owned()),
            "ons" if after(&["nummer"]) => Some("het praktijk".to_owned()),
            "ons" if contact => Some("de praktijk".to_owned()),
            "me" | "mij" if contact => Some(format!("de {role}")),
            _ => None,
        };
        if let Some(new) = new {
            words.words[i] = keep_tail(&words.words[i], &new);
            named = true;
        }
    }
    if !named {
        return text.to_owned();
    }
    // "het praktijk nummer" is one word
    words.text().replace("het praktijk nummer", "het praktijknummer").replace("Het praktijk nummer", "Het praktijknummer")
}

/// Words before a clinician's "ons" or "me" that make them the one to contact ("bel me", "bij
/// mij", "met ons").
const CONTACT_BEFORE: &[&str] = &["bel", "belt", "bellen", "mail", "mailt", "mailen", "app", "bij", "met"];

/// Adverbs between a clinician's "ons" or "me" and the verb that makes them the one to contact.
const CONTACT_ADVERBS: &[&str] = &["gerust", "altijd", "dan", "meteen", "direct", "even", "ook", "eerder"];

/// Words after a clinician's "ons" or "me" that make them the one to contact ("mij gerust bellen").
const CONTACT_AFTER: &[&str] = &["bellen", "mailen", "terugbellen", "bereiken"];

/// Words after which the patient's "u" is the clinician ([`clinician_named`]).
const BEFORE_THE_CLINICIAN: &[&str] =
    &["bij", "naar", "aan", "voor", "met", "door", "van", "die", "dat", "als", "of", "wat", "waar", "omdat", "zodat"];

/// Every "u" outside a quote named `name` (only after one of `after`, where given), its verb in the
/// third person.
fn addressee_named_as(text: &str, name: &str, after: Option<&[&str]>) -> String {
    let mut words = Words::of(text);
    let mut named = false;
    for (i, outside) in words.outside_quotes().into_iter().enumerate() {
        let placed =
            after.is_none_or(|after| i > 0 && tail(&words.words[i - 1]).is_empty() && after.contains(&bare(&words.words[i - 1]).as_str()));
        if bare(&words.words[i]) == "u" && outside && placed {
            words.words[i] = keep_tail(&words.words[i], name);
            named = true;
            // the verb before it ("kunt u") or after it, up to the clause's end
            let start = if i > 0 && tail(&words.words[i - 1]).is_empty() { i - 1 } else { i };
            words.third_person_verbs(start, i);
        } else if bare(&words.words[i]) == "jou" && outside && placed {
            // the object, with no verb of its own: "de combinatiepil is voor jou een goede keuze"
            words.words[i] = keep_tail(&words.words[i], name);
            named = true;
        }
    }
    if named { words.text() } else { text.to_owned() }
}

/// A sentence as words with the punctuation glued to them ("keel,", "38,5"): rewriting a phrase
/// is then matching a run of words.
struct Words {
    words: Vec<String>,
    /// Another tells the history ([`clinical_told`]): the speaker's own "ik" is theirs, not the
    /// patient's, and goes without a subject where it opens a subordinate clause.
    told: bool,
}

/// A word without its surrounding punctuation.
fn trimmed(w: &str) -> &str {
    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '-')
}

/// Whether the word before `words[i]`, with no punctuation between them, opens a subordinate clause
/// whose subject `words[i]` is: a word of [`SUBORDINATE`], or a relative "die" after its noun ("de
/// vragenlijst die u heeft ingevuld", not "over die vroege jaren").
fn opens_subordinate(words: &[String], i: usize) -> bool {
    i > 0 && tail(&words[i - 1]).is_empty() && {
        let w = bare(&words[i - 1]);
        SUBORDINATE.contains(&w.as_str()) || (w == "die" && i >= 2 && !PREPOSITIONS.contains(&bare(&words[i - 2]).as_str()))
    }
}

/// A word without its surrounding punctuation, lowercased.
fn bare(w: &str) -> String {
    trimmed(w).to_lowercase()
}

/// The punctuation after a word ("keel," → ",").
fn tail(w: &str) -> &str {
    let end = w.trim_end_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '%');
    &w[end.len()..]
}

impl Words {
    fn of(s: &str) -> Self {
        Words { words: s.split_whitespace().map(str::to_owned).collect(), told: false }
    }

    /// The patient's question as the record tells it: an indirect question where the subject is a
    /// third person ("Moet er geen foto gemaakt worden?" → "Vraagt of er geen foto gemaakt moet
    /// worden."), the question itself marked as a quote where it speaks as "ik", "we", "je" or "u"
    /// or is more than one clause (`Vraagt: "Moet ik dan stoppen met de borstvoeding?"`): turning
    /// those round would need the speaker's name or gender, and a quote loses nothing.
    fn patient_question(&self) -> String {
        let words: Vec<&str> = self.words.iter().map(String::as_str).filter(|w| !w.is_empty()).collect();
        if words.is_empty() {
            return String::new();
        }
        let quoted = || format!("Vraagt: \"{}\"", style::capitalised(&words.join(" ")));
        let [verb, subject, rest @ ..] = words.as_slice() else { return quoted() };
        // "Kan hij dan niet beter …": the "dan" of the question has no place in the report
        let rest: Vec<&str> = rest.iter().copied().filter(|w| bare(w) != "dan").collect();
        let personal = words.iter().any(|w| PERSONAL.contains(&bare(w).as_str()));
        let one_clause = words[..words.len() - 1].iter().all(|w| tail(w).is_empty())
            && rest.iter().all(|w| !SUBORDINATE.contains(&bare(w).as_str()) && !COORDINATORS.contains(&bare(w).as_str()));
        let v = bare(verb);
        if personal || !one_clause || !is_verb(&v) || !tail(subject).is_empty() || rest.is_empty() {
            return quoted();
        }
        let rest: Vec<String> = rest.iter().map(|w| trimmed(w).to_owned()).collect();
        // the finite verb goes to the clause's end, before its infinitives ("gemaakt moet worden",
        // "gemaakt hoeft te worden")
        let end = rest.iter().rposition(|w| !is_infinitive(&w.to_lowercase()) && !w.eq_ignore_ascii_case("te")).map_or(0, |i| i + 1);
        let mut clause = vec![bare(subject)];
        clause.extend(rest[..end].iter().cloned());
        clause.push(v);
        clause.extend(rest[end..].iter().cloned());
        format!("Vraagt of {}.", clause.join(" "))
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for w in self.words.iter().filter(|w| !w.is_empty()) {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(w);
        }
        // Punctuation left alone by a dropped word.
        let mut out = out.replace(" ,", ",").replace(",,", ",").replace(", .", ".").replace(",.", ".");
        while out.contains("  ") {
            out = out.replace("  ", " ");
        }
        out
    }

    /// True when the phrase's words match at word `i`.
    fn matches(&self, i: usize, phrase: &[&str]) -> bool {
        self.match_at(i, phrase.iter().copied()).is_some()
    }

    /// How many words the phrase's words take at `i`, matched case-insensitively; `None` where it
    /// does not stand there. Only the phrase's last word may carry punctuation after it.
    fn match_at<'p>(&self, i: usize, phrase: impl IntoIterator<Item = &'p str>) -> Option<usize> {
        let mut phrase = phrase.into_iter().peekable();
        let mut k = 0;
        while let Some(p) = phrase.next() {
            let w = self.words.get(i + k)?;
            if !trimmed(w).eq_ignore_ascii_case(p) || (phrase.peek().is_some() && !tail(w).is_empty()) {
                return None;
            }
            k += 1;
        }
        Some(k)
    }

    /// Per word, whether it stands outside a quote and holds no quote mark itself: a quote is
    /// left as it was said.
    fn outside_quotes(&self) -> Vec<bool> {
        let mut quoted = false;
        self.words
            .iter()
            .map(|w| {
                let quotes = w.matches('"').count();
                let free = !quoted && quotes == 0;
                quoted ^= quotes % 2 == 1;
                free
            })
            .collect()
    }

    /// E: "Wat ik hoor, is dat …" as "Wat ik hoor is dat …": the comma a speaker pauses with is
    /// no clause's end, and the impression's phrase is then found whole.
    fn no_pause_after_what_i_perceive(&mut self) {
        for k in 0..self.words.len().saturating_sub(3) {
            if self.matches(k, &["wat", "ik"])
                && matches!(bare(&self.words[k + 2]).as_str(), "hoor" | "zie")
                && tail(&self.words[k + 2]) == ","
                && bare(&self.words[k + 3]) == "is"
            {
                self.words[k + 2] = trimmed(&self.words[k + 2]).to_owned();
            }
        }
    }

    /// E: a diagnosis the clinician thinks not of, as the record says it: "Aan een zonnesteek denk
    /// ik niet, want …" → "Zonnesteek onwaarschijnlijk, want …", "Aan zwangerschapsvergiftiging
    /// denk ik hierbij niet" → "Zwangerschapsvergiftiging hierbij onwaarschijnlijk".
    fn unlikely(&mut self) {
        if self.words.first().is_none_or(|w| bare(w) != "aan") {
            return;
        }
        // "aan X denk ik [hierbij|nu|ook|eigenlijk] niet", X without punctuation
        let Some(k) = (1..self.words.len()).find(|&k| self.matches(k, &["denk", "ik"])) else { return };
        if k < 2 || self.words[..k].iter().any(|w| !tail(w).is_empty()) {
            return;
        }
        let adverb =
            self.words.get(k + 2).is_some_and(|w| matches!(bare(w).as_str(), "hierbij" | "nu" | "ook" | "eigenlijk") && tail(w).is_empty());
        let not = k + 2 + usize::from(adverb);
        if self.words.get(not).is_none_or(|w| bare(w) != "niet") {
            return;
        }
        let closing = format!("onwaarschijnlijk{}", tail(&self.words[not]));
        self.words[not] = closing;
        // "denk ik" goes, and the "aan" that opened the clause
        self.words.drain(k..k + 2);
        self.words.remove(0);
        if let Some(first) = self.words.first_mut() {
            *first = style::capitalised(first);
        }
    }

    /// P: the clinician's wish for what the addressee does, as the advice: "Ik wil dat u hem nu
    /// meteen naar de spoedeisende hulp brengt" → "Advies: hem nu meteen naar de spoedeisende hulp
    /// brengen", "ik wil graag dat je vandaag bloed laat prikken" → "Advies: vandaag bloed laten
    /// prikken". The clause's finite verb becomes its infinitive; where the register does not know
    /// it, the sentence is left for the rest of the rules. Another's doing stays a clause.
    fn wish_as_advice(&mut self) {
        const OPENINGS: &[&[&str]] = &[
            &["ik", "wil", "dat"],
            &["ik", "wil", "graag", "dat"],
            &["ik", "wil", "daarom", "dat"],
            &["ik", "wil", "dus", "dat"],
            &["ik", "wil", "wel", "dat"],
            &["we", "willen", "dat"],
            &["wil", "ik", "dat"],
            &["wil", "ik", "graag", "dat"],
            &["ik", "zou", "willen", "dat"],
            &["ik", "zou", "graag", "willen", "dat"],
        ];
        // a word may open before it: "Verder wil ik dat u …"
        let lead =
            usize::from(self.words.first().is_some_and(|w| {
                tail(w).is_empty() && matches!(bare(w).as_str(), "en" | "verder" | "dus" | "daarom" | "ook" | "dan" | "nu")
            }));
        let Some(opening) = OPENINGS.iter().find(|o| self.matches(lead, o)) else { return };
        let dat = lead + opening.len() - 1;
        if self.words.len() <= dat + 2 || !tail(&self.words[dat + 1]).is_empty() {
            return;
        }
        if !matches!(bare(&self.words[dat + 1]).as_str(), "u" | "je" | "jij") {
            // another does it: "Ik wil dat uw vrouw bloed laat prikken" → "Advies: dat uw vrouw
            // bloed laat prikken"
            self.words.splice(..dat, ["advies:".to_owned()]);
            return;
        }
        let from = dat + 2;
        let end = self.clause_end(from);
        let verb = (from..end).rev().find_map(|k| {
            let w = bare(&self.words[k]);
            finite(&w).filter(|f| f.inf != w).map(|f| (k, f.inf)).or_else(|| separable_infinitive(&w).map(|inf| (k, inf)))
        });
        match verb {
            Some((k, inf)) => {
                self.words[k] = keep_tail(&self.words[k], &inf);
                self.words.splice(..from, ["advies:".to_owned()]);
            }
            None => {
                // a verb the register does not know stays in its clause: "Advies: dat patiënt
                // elke dag fietst"
                self.words[dat + 1] = "patiënt".to_owned();
                self.third_person_verbs(dat + 1, dat + 1);
                self.words.splice(..dat, ["advies:".to_owned()]);
            }
        }
    }

    /// P: another who calls the patient is no call the patient makes: "De assistente belt u om
    /// de eerste afspraak te maken" → "De assistente belt patiënt om …" (not "De assistente
    /// bellen").
    fn someone_calls_the_patient(&mut self) {
        for i in 2..self.words.len().saturating_sub(1) {
            // the subject opens its clause ("in het weekend belt u de huisartsenpost" is the patient's call)
            let opens = i == 2 || !tail(&self.words[i - 3]).is_empty();
            let subject =
                opens && matches!(bare(&self.words[i - 2]).as_str(), "de" | "het" | "onze" | "een") && tail(&self.words[i - 1]).is_empty();
            if subject
                && bare(&self.words[i]) == "belt"
                && tail(&self.words[i]).is_empty()
                && matches!(bare(&self.words[i + 1]).as_str(), "u" | "je")
            {
                self.words[i + 1] = keep_tail(&self.words[i + 1], "patiënt");
            }
        }
    }

    /// O and E: the clinician perceiving what is not there, a few words before the denial, leaves
    /// the record: "Ik zie op dit moment geen aanwijzingen voor een depressie" → "Op dit moment geen
    /// aanwijzingen …", "zie ik in de oren nergens vocht" → "in de oren nergens vocht".
    fn drop_perceiving_before_denial(&mut self) {
        let perceives = |w: &str| matches!(w, "zie" | "vind" | "hoor" | "voel" | "merk");
        let mut i = 0;
        while i + 2 < self.words.len() {
            let opens = i == 0 || !tail(&self.words[i - 1]).is_empty() || matches!(bare(&self.words[i - 1]).as_str(), "en" | "maar");
            let (a, b) = (bare(&self.words[i]), bare(&self.words[i + 1]));
            let pair = (a == "ik" && perceives(&b)) || (perceives(&a) && b == "ik");
            let denial = || {
                (i + 2..self.words.len().min(i + 7))
                    .take_while(|&k| k == i + 2 || tail(&self.words[k - 1]).is_empty())
                    .any(|k| matches!(bare(&self.words[k]).as_str(), "geen" | "nergens" | "niets"))
            };
            if opens && pair && tail(&self.words[i]).is_empty() && tail(&self.words[i + 1]).is_empty() && denial() {
                self.words.drain(i..i + 2);
            }
            i += 1;
        }
    }

    /// S: the speaker's hedge after what they told, "geloof ik", "denk ik", "dacht ik", "meen ik"
    /// at a clause's end, goes: "een spreidbroek gehad, voor heupdysplasie geloof ik." → "… voor
    /// heupdysplasie." (never "… gelooft"). Before what follows ("denk ik dat het …") it stays.
    fn drop_trailing_hedge(&mut self) {
        let mut i = 1;
        while i < self.words.len() {
            let hedge = matches!(bare(&self.words[i - 1]).as_str(), "geloof" | "denk" | "dacht" | "meen")
                && tail(&self.words[i - 1]).is_empty()
                && bare(&self.words[i]) == "ik"
                && matches!(tail(&self.words[i]), "," | ".");
            if !hedge {
                i += 1;
                continue;
            }
            let punct = tail(&self.words[i]).to_owned();
            self.words.drain(i - 1..=i);
            // the comma before the hedge gives way to what closed it
            if i >= 2 {
                let before = &mut self.words[i - 2];
                let t = tail(before).len();
                before.truncate(before.len() - t);
                before.push_str(&punct);
                i -= 1;
            }
        }
    }

    /// Removes `n` words at `i`, moving the punctuation of the last one to the word before.
    fn remove(&mut self, i: usize, n: usize) {
        let punct = tail(&self.words[i + n - 1]).to_owned();
        self.words.drain(i..i + n);
        if !punct.is_empty() && i > 0 && tail(&self.words[i - 1]).is_empty() && punct != "." {
            self.words[i - 1].push_str(&punct);
        }
    }

    /// O: "Liggend meet ik 142/78" → "Liggend 142/78", "uit het dagboek reken ik een
    /// slaapefficiëntie van 65%" → "… een slaapefficiëntie van 65%": the clinician measuring,
    /// right before the value. Before anything else ("meet ik bloeddruk") it stays.
    fn drop_measuring_verb(&mut self) {
        let value = |w: &String| w.starts_with(|c: char| c.is_ascii_digit()) || bare(w) == "een";
        if let Some(i) = (0..self.words.len().saturating_sub(2)).find(|&i| {
            matches!(bare(&self.words[i]).as_str(), "meet" | "reken" | "tel")
                && bare(&self.words[i + 1]) == "ik"
                && tail(&self.words[i + 1]).is_empty()
                && value(&self.words[i + 2])
        }) {
            self.remove(i, 2);
        }
    }

    /// "Er ijs op gedaan", left of "Ik heb er ijs op gedaan" once its subject and verb went →
    /// "ijs erop gedaan": an opening "er" without a verb after it joins the particle it belongs
    /// to ("op", "bij", "van" …) within the next few words; without one it stays.
    fn reattach_er(&mut self) {
        const PARTICLES: &[&str] = &[
            "op", "bij", "van", "aan", "in", "uit", "over", "mee", "voor", "door", "tegen", "naar", "af", "om", "omheen", "overheen",
            "doorheen", "tegenaan", "onder", "tussen",
        ];
        if !self.words.first().is_some_and(|w| bare(w) == "er" && tail(w).is_empty())
            || self.words.get(1).is_none_or(|w| VERBS_AFTER_ER.contains(&bare(w).as_str()))
        {
            return;
        }
        // the "er" of a number counts what was named before: "Er 30 voorgeschreven" → "30
        // voorgeschreven"
        if self.words[1].starts_with(|c: char| c.is_ascii_digit()) {
            self.words.remove(0);
            return;
        }
        // within the first clause; a preposition before its own noun phrase is not the particle
        // ("Er al een zalfje van de drogist op gedaan" → "… van de drogist erop gedaan", never
        // "ervan de drogist"), unless no other follows
        let clause_end = self.words.iter().position(|w| !tail(w).is_empty()).unwrap_or(self.words.len() - 1);
        let governs = |k: usize| {
            tail(&self.words[k]).is_empty()
                && self.words.get(k + 1).is_some_and(|n| {
                    matches!(bare(n).as_str(), "de" | "het" | "een" | "zijn" | "haar" | "hun" | "die" | "deze" | "dit" | "dat" | "elke")
                })
        };
        let particles: Vec<usize> = (2..=clause_end.min(12)).filter(|&k| PARTICLES.contains(&bare(&self.words[k]).as_str())).collect();
        let Some(k) = particles.iter().copied().find(|&k| !governs(k)).or(particles.first().copied().filter(|&k| k < 7)) else {
            return;
        };
        self.words[k].insert_str(0, "er");
        self.words.remove(0);
    }

    /// Whether the word at `i` ends a subordinate clause of "ik" ("wat ik 's nachts allemaal
    /// hoor"), no punctuation between: there the verb stands last ("dat weet ik niet hoor" has
    /// its verb).
    fn in_clause_of_ik(&self, i: usize) -> bool {
        let clause: Vec<String> = self.words[..i].iter().rev().take_while(|w| tail(w).is_empty()).map(|w| bare(w)).collect();
        clause.windows(2).any(|pair| pair[0] == "ik" && SUBORDINATE.contains(&pair[1].as_str()))
    }

    /// The clinician's understanding nodded to before the point: "Dat begrijp ik, maar de
    /// vooruitzichten zijn goed" → "De vooruitzichten zijn goed"; "Dat snap ik heel goed." goes
    /// whole. Without its pause ("dat snap ik we gaan …", typed) it stays.
    fn drop_understanding(&mut self) {
        let opens = self.words.len() >= 3
            && bare(&self.words[0]) == "dat"
            && matches!(bare(&self.words[1]).as_str(), "begrijp" | "snap")
            && bare(&self.words[2]) == "ik";
        if !opens {
            return;
        }
        let mut end = 3;
        while end < self.words.len()
            && tail(&self.words[end - 1]).is_empty()
            && matches!(bare(&self.words[end]).as_str(), "heel" | "goed" | "wel" | "best" | "ook")
        {
            end += 1;
        }
        let paused = !tail(&self.words[end - 1]).is_empty();
        if !paused {
            return;
        }
        self.words.drain(..end);
        if self.words.first().is_some_and(|w| matches!(bare(w).as_str(), "maar" | "en") && tail(w).is_empty()) && self.words.len() > 1 {
            self.words.remove(0);
        }
    }

    /// The clinician addressed by title is no part of the record: "Zitten lukt niet, dokter, …" →
    /// "Zitten lukt niet, …", "Goedemorgen dokter, ik heb …" → "Ik heb …", "Nee dokter, …" → "Nee,
    /// …"; "bij de dokter" is a place and stays.
    fn drop_vocative(&mut self) {
        const GREETINGS: &[&str] = &["goedemorgen", "goedemiddag", "goedenavond", "morgen", "middag", "dag", "hallo", "hoi", "beste"];
        const REPLIES: &[&str] = &["ja", "nee", "goed", "oké", "ok", "sorry", "nou", "tja", "jawel"];
        let mut i = 0;
        while i < self.words.len() {
            if !trimmed(&self.words[i]).eq_ignore_ascii_case("dokter") {
                i += 1;
                continue;
            }
            let own = tail(&self.words[i]).to_owned();
            let before = i.checked_sub(1).map(|k| bare(&self.words[k]));
            let pause_before = i.checked_sub(1).is_none_or(|k| !tail(&self.words[k]).is_empty());
            if i == 1 && tail(&self.words[0]).is_empty() && before.as_deref().is_some_and(|b| GREETINGS.contains(&b)) {
                // the greeting goes with it
                self.words.drain(..2);
                i = 0;
            } else if !pause_before && before.as_deref().is_some_and(|b| REPLIES.contains(&b)) && !own.is_empty() {
                // its pause stays with the reply
                self.words.remove(i);
                self.words[i - 1].push_str(&own);
            } else if pause_before && (!own.is_empty() || i + 1 == self.words.len()) && (i > 0 || i + 1 < self.words.len()) {
                self.words.remove(i);
                // a question or a sentence it ended ends on the word before: "…, dokter?" → "…?"
                if own.contains(['?', '.', '!'])
                    && let Some(prev) = i.checked_sub(1).and_then(|k| self.words.get_mut(k))
                {
                    let kept = prev.trim_end_matches([',', ';']).len();
                    prev.truncate(kept);
                    prev.push_str(&own);
                }
            } else {
                i += 1;
            }
        }
    }

    fn drop_fillers(&mut self) {
        let fillers: Vec<Vec<&str>> = INNER_FILLERS.iter().map(|f| f.split(' ').collect()).collect();
        let mut i = 0;
        while i < self.words.len() {
            let hit = fillers.iter().find(|f| self.matches(i, f)).cloned();
            match hit {
                // "echt" and "even" only as fillers, not as the last word ("dat is echt").
                Some(f) if f.len() == 1 && matches!(f[0], "echt" | "even") && i + 1 == self.words.len() => i += 1,
                // "heel gewoon", "zo gewoon": the adjective, not the filler ("zijn de eerste jaren
                // heel gewoon")
                Some(f)
                    if f == ["gewoon"]
                        && i > 0
                        && tail(&self.words[i - 1]).is_empty()
                        && DEGREE.contains(&bare(&self.words[i - 1]).as_str()) =>
                {
                    i += 1
                }
                // "plassen gaat gewoon", "hij praat gewoon": closing a clause after its verb, it says
                // how, normally
                Some(f)
                    if f == ["gewoon"]
                        && i > 0
                        && (!tail(&self.words[i]).is_empty() || i + 1 == self.words.len())
                        && tail(&self.words[i - 1]).is_empty()
                        && FUNCTIONING.contains(&bare(&self.words[i - 1]).as_str()) =>
                {
                    self.words[i] = keep_tail(&self.words[i], "normaal");
                    i += 1
                }
                // "Ik hoor", "hoor ik", "wat ik 's nachts allemaal hoor", "Hoor je dat, Thijs?": the
                // verb, not the filler.
                Some(f)
                    if f == ["hoor"]
                        && (i > 0 && bare(&self.words[i - 1]) == "ik"
                            // "hoor ik", not "prima hoor, ik ben …"
                            || (tail(&self.words[i]).is_empty() && self.words.get(i + 1).is_some_and(|w| bare(w) == "ik"))
                            || (i == 0
                                && tail(&self.words[i]).is_empty()
                                && self.words.get(i + 1).is_some_and(|w| matches!(bare(w).as_str(), "je" | "jij" | "u" | "jullie")))
                            || self.in_clause_of_ik(i)) =>
                {
                    i += 1
                }
                Some(f) => {
                    let n = f.len();
                    let punct = tail(&self.words[i + n - 1]).to_owned();
                    self.words.drain(i..i + n);
                    // A filler's comma goes with it, unless it closed the clause before it
                    // ("Goed hoor, ik wandel" → "Goed, …"); a full stop stays.
                    if punct.contains(['.', '?', '!']) && i > 0 {
                        let prev = &mut self.words[i - 1];
                        let t = tail(prev).len();
                        prev.truncate(prev.len() - t);
                        prev.push_str(punct.trim_start_matches(','));
                    } else if punct.starts_with(',')
                        && i > 0
                        && tail(&self.words[i - 1]).is_empty()
                        && matches!(f[0], "hoor" | "hè" | "echt" | "eigenlijk" | "trouwens" | "haha")
                    {
                        self.words[i - 1].push(',');
                    }
                }
                None => i += 1,
            }
        }
    }

    /// "148 over 92" → "148/92", "98 procent" and "38,4 %" → "98%" and "38,4%" ([`numbers::notation`]).
    fn numbers(&mut self) {
        // (only a number can open a percentage or a ratio: most sentences are left as they are)
        if !self.words.iter().any(|w| w.starts_with(|c: char| c.is_ascii_digit())) {
            return;
        }
        let text = numbers::notation(&self.words.join(" "));
        self.words = text.split(' ').map(str::to_owned).collect();
    }

    /// "Die 62 is te hoog" → "62 is te hoog": a demonstrative before a value points back at what
    /// the value itself names in the note.
    fn value_without_pointer(&mut self) {
        let value = |w: &String| numbers::is_value(trimmed(w));
        if self.words.len() > 2
            && matches!(bare(&self.words[0]).as_str(), "die" | "dat" | "dit" | "deze")
            && tail(&self.words[0]).is_empty()
            && value(&self.words[1])
        {
            self.words.remove(0);
        }
    }

    /// Drops the first of `openings` the sentence starts with.
    fn drop_opening(&mut self, openings: &[&str]) {
        for o in openings {
            let phrase: Vec<&str> = o.split(' ').collect();
            if self.matches(0, &phrase) && self.words.len() > phrase.len() {
                self.words.drain(..phrase.len());
                // "Ik heb een rode plek" → "Rode plek"; "Dat is een wondroos" → "Wondroos"; but
                // "een week hoofdpijn" keeps its "een".
                let unit = self
                    .words
                    .get(1)
                    .is_some_and(|w| NUMBER_UNITS.contains(&bare(w).as_str()) || matches!(bare(w).as_str(), "paar" | "tijdje"));
                if self.words.len() > 1 && bare(&self.words[0]) == "een" && tail(&self.words[0]).is_empty() && !unit {
                    self.words.remove(0);
                }
                return;
            }
        }
    }

    fn replace_opening(&mut self, openings: &[(&str, &str)]) {
        for (o, with) in openings {
            let phrase: Vec<&str> = o.split(' ').collect();
            if self.matches(0, &phrase) && self.words.len() > phrase.len() {
                self.words.splice(..phrase.len(), with.split_whitespace().map(str::to_owned));
                // a partitive "er" before a number goes with a dropped opening: "u mag er
                // maximaal twee gebruiken" → "maximaal 2 gebruiken" ("u kunt er een pleister
                // omheen plakken" keeps it for "eromheen")
                let quantity = |w: &String| {
                    w.starts_with(|c: char| c.is_ascii_digit()) || matches!(bare(w).as_str(), "maximaal" | "minimaal" | "hooguit")
                };
                if with.is_empty() && self.matches(0, &["er"]) && tail(&self.words[0]).is_empty() && self.words.get(1).is_some_and(quantity)
                {
                    self.words.remove(0);
                }
                return;
            }
        }
    }

    /// Replaces phrases anywhere (an empty replacement drops the phrase).
    fn replace(&mut self, phrases: &[(&str, &str)]) {
        let mut i = 0;
        while i < self.words.len() {
            match phrases.iter().find_map(|(p, with)| self.match_at(i, p.split(' ')).map(|n| (n, *with))) {
                Some((n, with)) => {
                    let punct = tail(&self.words[i + n - 1]).to_owned();
                    let mut new: Vec<String> = with.split_whitespace().map(str::to_owned).collect();
                    if let Some(last) = new.last_mut() {
                        last.push_str(&punct);
                        self.words.splice(i..i + n, new.iter().cloned());
                        i += new.len();
                        self.verb_to_clause_end(i - 1);
                    } else {
                        self.remove(i, n);
                    }
                }
                None => i += 1,
            }
        }
    }

    /// An infinitive put in the place of a finite verb ("belt u direct de praktijk" → "direct
    /// bellen de praktijk") goes to the end of its clause, where Dutch puts it: "direct de
    /// praktijk bellen". A word carrying punctuation, or a conjunction, ends the clause.
    /// The clause ends at punctuation or before a conjunction or preposition (`is_clause_word`):
    /// "… de praktijk of de huisartsenpost bellen" keeps both objects before the verb.
    fn verb_to_clause_end(&mut self, at: usize) {
        let Some(verb) = self.words.get(at) else { return };
        // already at its clause's end: "komt u terug en kunnen we …" → "terugkomen en …"
        if !MOVABLE_INFINITIVES.contains(&bare(verb).as_str())
            || !tail(verb).is_empty()
            || self.words.get(at + 1).is_some_and(|w| is_clause_word(&bare(w)))
        {
            return;
        }
        let end = (at + 1..self.words.len())
            .find(|&k| !tail(&self.words[k]).is_empty() || self.words.get(k + 1).is_some_and(|w| is_clause_word(&bare(w))));
        if let Some(end) = end {
            self.move_word(at, self.before_te(at, end).unwrap_or(end));
        }
    }

    /// The clinician's own voice becomes the record's: no "ik", "we", "u" or "je" is left where a
    /// whole line can be made without it. Per clause: "we verhogen de furosemide" → "de
    /// furosemide verhogen", "ik verhoog X" → "X verhogen", "over een week prikken we bloed" →
    /// "over een week bloed prikken" (the infinitive at the clause's end); in the plan "u blijft
    /// elke ochtend wegen" → "blijf elke ochtend wegen" (the imperative) and "u moet elke dag
    /// wandelen" → "elke dag wandelen"; elsewhere "u weegt 97 kilo" → "weegt 97 kilo"; in a
    /// subordinate clause "als u benauwder wordt" → "als benauwder wordt"; "bij u thuis" →
    /// "thuis"; a possessive "je" goes. A pronoun whose clause cannot be rewritten stays.
    ///
    /// Where `assessing` (E), the clinician's "we" or "ik" goes only with a modal and its
    /// infinitive: "Bloeddruk nog te hoog, we willen onder de 140 uitkomen" → "…, onder de 140
    /// uitkomen"; "maar we willen voorkomen dat …" → "maar voorkomen dat …". Any other verb of
    /// theirs stays: "we noemen dat X" made "dat X noemen" would lose the sense.
    fn record_voice(&mut self, plan: bool, assessing: bool) {
        let mut i = 0;
        while i < self.words.len() {
            let w = bare(&self.words[i]);
            let speaker_word = matches!(w.as_str(), "ik" | "we" | "wij");
            let addressee = matches!(w.as_str(), "u" | "je" | "jij");
            if !(addressee || (speaker_word && (plan || assessing))) {
                i += 1;
                continue;
            }
            let prev = (i > 0).then(|| bare(&self.words[i - 1]));
            let opens = i == 0 || !tail(&self.words[i - 1]).is_empty() || prev.as_deref().is_some_and(|p| COORDINATORS.contains(&p));
            if speaker_word && !plan {
                if opens && tail(&self.words[i]).is_empty() && self.modal_with_infinitive(i + 1).is_some() {
                    self.words.drain(i..i + 2);
                } else if assessing
                    && prev.as_deref().is_some_and(|p| matches!(p, "moeten" | "moet"))
                    && tail(&self.words[i - 1]).is_empty()
                    && self.modal_with_infinitive(i - 1).is_some()
                {
                    // what must be ruled out: "dan moeten we zaadbalkanker uitsluiten" → "dan
                    // zaadbalkanker uitsluiten"
                    self.words.drain(i - 1..i + 1);
                    i -= 1;
                } else {
                    i += 1;
                }
                continue;
            }
            // "ook al heeft u er geen zin in": a concession's subject stays, named
            if addressee
                && i >= 3
                && bare(&self.words[i - 3]) == "ook"
                && bare(&self.words[i - 2]) == "al"
                && let Some(verb) = finite(&bare(&self.words[i - 1]))
            {
                self.words[i - 1] = keep_tail(&self.words[i - 1], &verb.third);
                self.words[i] = keep_tail(&self.words[i], "patiënt");
                i += 1;
                continue;
            }
            let subordinate = opens_subordinate(&self.words, i);
            let next = self.words.get(i + 1).filter(|_| tail(&self.words[i]).is_empty()).map(|n| bare(n));
            // the clinician's "we" goes with a plural, which is the infinitive of any verb
            let we = matches!(w.as_str(), "we" | "wij");
            let verb_of = |v: &str| if we { finite_with_we(v) } else { finite(v) };
            // "ik laat bloed prikken": for the clinician, "laten" with an infinitive is a modal
            // what the clinician has done, its participle in the clause from `from`: "ik heb net
            // overlegd", "drie maanden geleden hebben we de dosis verhoogd"
            let done = |words: &Self, verb: &Finite, from: usize| {
                speaker_word && matches!(verb.inf.as_str(), "hebben" | "zijn") && words.participle_in_clause(from)
            };
            let modal = |words: &Self, at: usize| {
                words.modal_with_infinitive(at).is_some()
                    || (speaker_word
                        && words.words.get(at).is_some_and(|v| matches!(bare(v).as_str(), "laat" | "laten"))
                        && (at + 1..words.clause_end(at)).any(|k| infinitive_shaped(&bare(&words.words[k]))))
            };
            // "over een week prikken we", "dan heb je": the verb before the subject, after a
            // fronted time or adverb (for "u" and "je", which are objects as often as subjects).
            let inverted = i > 0
                && !opens
                && !subordinate
                && tail(&self.words[i - 1]).is_empty()
                && prev.as_deref().and_then(verb_of).is_some()
                && (speaker_word
                    || self.fronted_adverbial(i - 1)
                    // after a fronted clause: "Als het gevoel wegblijft, moet u niet afwachten"
                    || (plan && i >= 2 && tail(&self.words[i - 2]).starts_with(',') && self.condition_before(i - 2)));
            // "ik heb er 36 voorgeschreven", "ik maak er ook een foto van": without its subject
            // and verb the clause would open with "er"; the clinician is named instead (not where
            // "er … bij" joins as "erbij": "we schrijven er amlodipine bij" → "amlodipine erbij
            // schrijven")
            if speaker_word
                && opens
                && self.words.get(i + 2).is_some_and(|w| bare(w) == "er")
                && tail(&self.words[i + 1]).is_empty()
                && !(i + 3..self.clause_end(i + 2)).any(|k| bare(&self.words[k]) == "bij")
            {
                i += 1;
                continue;
            }
            if opens && let Some(verb) = next.as_deref().and_then(verb_of) {
                if done(self, &verb, i + 2) || (modal(self, i + 1) && (plan || speaker_word)) {
                    // what the clinician has done: "ik heb net overlegd met de internist" → "net
                    // overlegd met de internist" (not "… hebben"); "u moet elke dag wandelen" →
                    // "elke dag wandelen"
                    self.words.drain(i..i + 2);
                } else if addressee && matches!(verb.inf.as_str(), "hebben" | "zijn") && self.participle_in_clause(i + 2) {
                    // what the patient has done is no instruction: "maar u heeft het tot nu toe
                    // goed verdragen" → "maar patiënt heeft het …" (the subject named after a
                    // word that links it on), at the sentence's start "Heeft het … verdragen"; a
                    // plural stays with its two subjects ("zijn zusje en u zijn besmet")
                    if next.as_deref() != Some(verb.inf.as_str()) {
                        self.words[i + 1] = keep_tail(&self.words[i + 1], &verb.third);
                    }
                    if i == 0 {
                        self.words.remove(i);
                    } else {
                        self.words[i] = keep_tail(&self.words[i], "patiënt");
                        i += 2;
                    }
                } else if speaker_word && verb.inf == "zijn" {
                    // where the clinician will be has no infinitive line ("ik ben er rond half
                    // vier", not "er rond half vier zijn"): the clinician is named instead
                    i += 1;
                } else if addressee && (plan || assessing) && verb.inf == "zijn" {
                    // "u bent flink ziek, maar …" → "flink ziek, maar …": a state, no "wees"
                    self.words.drain(i..i + 2);
                } else if addressee && plan && RECEIVED.contains(&verb.inf.as_str()) {
                    // what comes to the patient is no instruction: "u hoort van het ziekenhuis
                    // wanneer de afspraak is" → "hoort van het ziekenhuis …", not "hoor"
                    self.words[i + 1] = keep_tail(&self.words[i + 1], &verb.third);
                    self.words.remove(i);
                } else if addressee && plan {
                    // "u blijft elke ochtend wegen" → "blijf elke ochtend wegen"
                    self.words[i + 1] = keep_tail(&self.words[i + 1], &verb.imperative);
                    self.words.remove(i);
                } else if addressee {
                    // "u weegt 97 kilo" → "weegt 97 kilo"
                    self.words[i + 1] = keep_tail(&self.words[i + 1], &verb.third);
                    self.words.remove(i);
                } else {
                    // "we verhogen de furosemide" → "de furosemide verhogen"
                    self.words[i + 1] = keep_tail(&self.words[i + 1], &verb.inf);
                    self.words.remove(i);
                    self.move_to_clause_end(i);
                }
                continue;
            }
            // what the clinician does with a thing named before the verb keeps its subject: "Dat kan
            // ik hier niet goed beoordelen" (never "Dat hier niet goed beoordelen"); the clinician
            // is named after (the profession's "we" goes: "daar de volgende keer verder over
            // praten")
            if inverted && plan && w == "ik" && self.demonstrative_fronted(i - 1) {
                i += 1;
                continue;
            }
            if inverted
                && plan
                && let Some(verb) = prev.as_deref().and_then(verb_of)
            {
                if modal(self, i - 1) || done(self, &verb, i + 1) {
                    // "over drie maanden wil ik je bloeddruk meten" → "… je bloeddruk meten"; what
                    // was done before: "drie maanden geleden hebben we de dosis verhoogd" → "3
                    // maanden geleden de dosis verhoogd" (not "… verhoogd hebben")
                    self.words.drain(i - 1..i + 1);
                    i -= 1;
                } else {
                    // "over een week prikken we bloed" → "over een week bloed prikken"
                    self.words[i - 1] = keep_tail(&self.words[i - 1], &verb.inf);
                    self.remove(i, 1);
                    self.move_to_clause_end(i - 1);
                    // what followed the verb moved up: look at it again
                    i -= 1;
                }
                continue;
            }
            // "of je ogen gaan pijn doen", "dat je moeder er lang over deed": a "je" before a noun
            // is whose, and goes as "uw" does, unless a verb in its person follows in its clause
            // ("zolang je koorts hebt", "voordat je de tablet neemt"); a copula, a plural or a verb
            // the noun itself does is the noun's ("omdat je cyclus onregelmatig was", "als je
            // vriend ook stopt", "wanneer je cyclus begint")
            // ("omdat je cyclus onregelmatig was": a copula after a predicate of its own; "als je
            // ongesteld wordt", "als je 35 wordt" keep "je" as the subject)
            let of_je = |k: usize| {
                let n = bare(&self.words[k]);
                // a singular verb, and not one the noun itself goes with
                let singular = verb_shaped(&n) && !n.ends_with("en") && !matches!(n.as_str(), "gaan" | "staan" | "slaan");
                let the_noun_does = DONE_BY_A_NOUN.contains(&n.as_str()) || (COPULAS.contains(&n.as_str()) && k > i + 2);
                second_person_third(&n).is_some() || (singular && !the_noun_does)
            };
            let possessive = w == "je"
                && next.as_deref().is_some_and(|n| !verb_shaped(n) && !NOT_WHOSE.contains(&n))
                && !(i + 2..self.clause_end(i)).any(of_je);
            if addressee && subordinate && !possessive {
                // a subordinate clause keeps its subject, the patient named: "in het dossier dat u
                // overgevoelig bent voor amoxicilline, zodat u het niet opnieuw krijgt" → "… dat
                // patiënt overgevoelig is …, zodat patiënt het niet opnieuw krijgt"; "Wat u
                // beschrijft past bij rouw" → "Wat patiënt beschrijft …"; "als u benauwder wordt"
                // → "als patiënt benauwder wordt" ("als benauwder wordt" is no Dutch); the clause's
                // verb, wherever it stands, in the third person
                self.words[i] = keep_tail(&self.words[i], "patiënt");
                self.third_person_verbs(i, i);
                i += 1;
                continue;
            }
            if addressee && subordinate {
                // "als je ogen pijn gaan doen" → "als ogen pijn gaan doen"
                self.remove(i, 1);
                continue;
            }
            if addressee && opens && matches!(next.as_deref(), Some("en" | "of")) {
                // one of two: "dan behandelen we u en uw gezin" → "dan patiënt en gezin … behandelen"
                self.words[i] = keep_tail(&self.words[i], "patiënt");
                i += 1;
                continue;
            }
            if addressee && opens && next.as_deref().and_then(finite).is_none() && i + 1 < self.words.len() && !subordinate {
                // a possessive opening the clause: "Je bloeddruk 112/68" → "Bloeddruk 112/68"; or a
                // subject before a verb-final clause, whose copula goes with it ("u overbelast
                // bent door …" → "overbelast door …") and whose other verb becomes third person
                self.remove(i, 1);
                let end = self.clause_end(i);
                if let Some(k) = (i..end).find(|&k| matches!(bare(&self.words[k]).as_str(), "bent" | "ben")) {
                    self.remove(k, 1);
                } else if let Some((k, third)) = (i..end).find_map(|k| second_person_third(&bare(&self.words[k])).map(|t| (k, t))) {
                    self.words[k] = keep_tail(&self.words[k], third);
                }
                continue;
            }
            if addressee && !opens && prev.as_deref().is_some_and(|p| matches!(p, "bij" | "voor" | "met" | "aan" | "naar")) {
                if i == 1 || !tail(&self.words[i - 2]).is_empty() {
                    // fronted, with the verb after it: "voor u ligt de streefwaarde onder de 53"
                    // → "voor patiënt ligt …" (without it the verb would open the clause)
                    self.words[i] = keep_tail(&self.words[i], "patiënt");
                    i += 1;
                } else {
                    // "bij u thuis" → "thuis", "een afspraak voor u" → "een afspraak"
                    self.remove(i - 1, 2);
                    i -= 1;
                }
                continue;
            }
            if addressee
                && !opens
                && !subordinate
                && tail(&self.words[i - 1]).is_empty()
                && let Some(third) = prev.as_deref().and_then(second_person_third)
            {
                // a verb only "u" or "je" goes with, before it: its subject, after a time or
                // place fronted ("De eerste week bent u overdag slaperiger" → "De eerste week is
                // overdag slaperiger")
                self.words[i - 1] = keep_tail(&self.words[i - 1], third);
                self.remove(i, 1);
                continue;
            }
            if addressee
                && !opens
                && !inverted
                && tail(&self.words[i - 1]).is_empty()
                && !matches!(prev.as_deref(), Some("ik" | "we" | "wij"))
            {
                // an object or a possessive: "kan u daarbij begeleiden", "je volgende menstruatie";
                // or the subject of a clause a question word opens, whose verb goes with it ("hoe
                // moe u overdag bent" → "hoe moe overdag is")
                self.remove(i, 1);
                self.third_person_verbs(i, i);
                continue;
            }
            i += 1;
        }
    }

    /// Whether the clause that ends at `end` (with its comma) is a condition or a time put first
    /// ("Als het gevoel wegblijft, moet u niet afwachten"), not one of a list of conditions ("Wordt
    /// u benauwd, krijgt u koorts …"): then the verb after it opens the main clause.
    fn condition_before(&self, end: usize) -> bool {
        let start = (0..end).rev().find(|&k| !tail(&self.words[k]).is_empty()).map_or(0, |k| k + 1);
        let opener = bare(&self.words[start]);
        let opener =
            if matches!(opener.as_str(), "en" | "maar" | "dus" | "pas") && start < end { bare(&self.words[start + 1]) } else { opener };
        matches!(opener.as_str(), "als" | "zodra" | "wanneer" | "zolang" | "voordat" | "totdat" | "tot" | "nadat" | "omdat")
    }

    /// Whether the words before the verb at `verb` are a fronted time or adverb ("over drie
    /// maanden", "dan", "daarna"), so that the pronoun after the verb is its subject.
    fn fronted_adverbial(&self, verb: usize) -> bool {
        let start = (0..verb).rev().find(|&k| !tail(&self.words[k]).is_empty()).map_or(0, |k| k + 1);
        self.words.get(start).is_some_and(|w| FRONTED.contains(&bare(w).as_str())) && start < verb
    }

    /// Whether the clause of the verb at `verb` opens with nothing but a demonstrative before it
    /// ("Dat kan ik …", "Daar kijken we …"): the thing the verb is done with, which needs its
    /// subject and verb to stay a sentence.
    fn demonstrative_fronted(&self, verb: usize) -> bool {
        verb >= 1
            && (verb == 1 || !tail(&self.words[verb - 2]).is_empty())
            && tail(&self.words[verb - 1]).is_empty()
            && matches!(bare(&self.words[verb - 1]).as_str(), "dat" | "dit" | "daar")
    }

    /// Whether the verb at `at` is a modal ("moet", "kunt", "mag", "gaat") with an infinitive
    /// later in its clause: then subject and modal can go ("u moet elke dag wandelen" → "elke dag
    /// wandelen").
    fn modal_with_infinitive(&self, at: usize) -> Option<usize> {
        if !is_modal(&bare(self.words.get(at)?)) {
            return None;
        }
        let end = (at..self.words.len()).find(|&k| k > at && !tail(&self.words[k]).is_empty()).unwrap_or(self.words.len() - 1);
        (at + 1..=end).find(|&k| infinitive_shaped(&bare(&self.words[k])))
    }

    /// Moves the word at `at` to the end of its clause (before the word that carries punctuation,
    /// or a conjunction), where Dutch puts an infinitive.
    fn move_to_clause_end(&mut self, at: usize) {
        // a clause opening right after the verb leaves it where it is: "dan kijken we hoe het
        // omlaag kan" → "dan kijken hoe het omlaag kan"; fewer words than [`SUBORDINATE`] open one
        // here ("voel ik wat benige verdikking": "wat" is "some"), and "dat" only before a subject
        // ("doen we dat nog een keer" has "dat" for its object)
        let next = self.words.get(at + 1).map(|w| bare(w)).unwrap_or_default();
        let opens_clause = matches!(
            next.as_str(),
            "hoe" | "of" | "waar" | "wanneer" | "waarom" | "welke" | "omdat" | "zodat" | "als" | "voordat" | "nadat" | "zodra"
        ) || (next == "dat"
            && self.words.get(at + 2).is_some_and(|n| {
                matches!(bare(n).as_str(), "patiënt" | "het" | "er" | "de" | "hij" | "ze" | "zij" | "u" | "je" | "we" | "ik" | "men")
            }));
        if at >= self.words.len() || !tail(&self.words[at]).is_empty() || opens_clause {
            return;
        }
        // a range's "tot" opens no clause: "anderhalf tot 2 liter water drinken", never
        // "anderhalf drinken tot 2 liter"
        let range = |k: usize| {
            let w = bare(&self.words[k]);
            self.words.get(k + 1).is_some_and(|n| bare(n) == "tot")
                && (w.starts_with(|c: char| c.is_ascii_digit()) || matches!(w.as_str(), "anderhalf" | "half" | "een" | "één"))
        };
        let end = (at + 1..self.words.len()).find(|&k| !tail(&self.words[k]).is_empty() || (self.clause_follows(k + 1) && !range(k)));
        let Some(end) = end else { return };
        // an "om te" clause is the next clause's; an auxiliary or modal has no particle ("weg
        // moeten", "zo terug zijn")
        let own = (at + 1..=end).find(|&k| matches!(bare(&self.words[k]).as_str(), "om" | "te")).map_or(end, |k| k - 1);
        let auxiliary = matches!(
            bare(&self.words[at]).as_str(),
            "zijn" | "worden" | "hebben" | "moeten" | "willen" | "kunnen" | "mogen" | "hoeven" | "zullen" | "laten"
        );
        if let Some(k) = (at + 1..=own).find(|&k| !auxiliary && self.is_particle(k, end)) {
            // a separable verb: the infinitive stands where its particle stood ("kom je terug bij
            // de praktijkondersteuner" → "terugkomen bij de praktijkondersteuner")
            let particle = &self.words[k];
            self.words[k] = format!("{}{}{}", bare(particle), bare(&self.words[at]), tail(particle));
            self.words.remove(at);
            return;
        }
        match self.before_te(at, end) {
            Some(k) => self.move_word(at, k),
            None => self.move_word(at, self.list_end(end)),
        }
    }

    /// Where a verb moved to the end of its clause (`at` to `end`) stands when the clause holds an
    /// "om te" clause or a "te" infinitive: before it ("de spoedeisende hulp nu bellen om te
    /// zeggen dat …", not "… om te zeggen bellen dat …"; "verder niets hoeven te veranderen").
    /// The word it then follows (itself, where the clause opens right after it).
    fn before_te(&self, at: usize, end: usize) -> Option<usize> {
        (at + 1..=end.min(self.words.len() - 1))
            .find(|&k| {
                let w = bare(&self.words[k]);
                tail(&self.words[k - 1]).is_empty()
                    && (w == "om" || (w == "te" && self.words.get(k + 1).is_some_and(|n| bare(n).ends_with("en"))))
            })
            .map(|k| k - 1)
    }

    /// Whether the word at `k`, in a clause ending at `end`, is the particle of a separable verb
    /// ("terug", "mee", "op"): one that is never a preposition anywhere in the clause, or one
    /// that may be a preposition only at the clause's end ("stuur de urine op").
    fn is_particle(&self, k: usize, end: usize) -> bool {
        let w = bare(&self.words[k]);
        let next = self.words.get(k + 1).map(|n| bare(n));
        match w.as_str() {
            "terug" | "mee" | "weg" | "langs" => true,
            "af" | "toe" => next.as_deref() != Some("en"),
            // "het rustig aan doen" is no "aandoen"
            "aan" => {
                // "vraag een afspraak aan op de polikliniek": before a prepositional phrase too
                let before_phrase = next.as_deref().is_some_and(|n| PREPOSITIONS.contains(&n) && n != "aan");
                (k == end || before_phrase) && !matches!(bare(&self.words[k - 1]).as_str(), "rustig" | "kalm")
            }
            "op" | "uit" | "door" | "na" => k == end,
            _ => false,
        }
    }

    /// The last word of the list a clause ending at `end` with a comma opens ("bloed voor
    /// cholesterol, suiker en nierfunctie"): the verb moved to the clause's end goes after the
    /// list, not into it. `end` itself when no list follows: its items are up to six words without a
    /// verb, the last one joined by "en" or "of".
    fn list_end(&self, end: usize) -> usize {
        let mut last = end;
        while tail(&self.words[last]) == "," {
            let item_end = self.clause_end(last + 1);
            let item: Vec<String> = self.words[last + 1..item_end].iter().map(|w| bare(w)).collect();
            let verbless = !item.is_empty()
                && item.len() <= 6
                && item.iter().all(|w| {
                    !is_verb(w)
                        && first_person_verb(w).is_none()
                        && !SUBORDINATE.contains(&w.as_str())
                        && !LIST_BREAKERS.contains(&w.as_str())
                });
            if !verbless {
                break;
            }
            last = item_end - 1;
            if item.iter().any(|w| matches!(w.as_str(), "en" | "of")) {
                // the list's last item: it ends here
                return last;
            }
        }
        end
    }

    /// "Waarschijnlijk dat de meniscus niet beschadigd is" → "Waarschijnlijk is de meniscus niet
    /// beschadigd": a subordinate clause ("ik denk dat …") whose opening became the adverb is a
    /// main clause, with its finite verb second; where the register knows no verb of the clause,
    /// it stays a clause after "De indruk is dat".
    fn verb_second_after(&mut self, adverb: &str) {
        let Some(i) = self.words.iter().position(|w| bare(w) == adverb && tail(w).is_empty()) else { return };
        // "waarschijnlijk dat …" is the thought's clause ("ik denk dat …"); without "dat" a name
        // follows ("ik denk aan een longontsteking")
        if self.words.get(i + 1).is_none_or(|w| bare(w) != "dat" || !tail(w).is_empty()) || i + 2 >= self.words.len() {
            return;
        }
        self.words.remove(i + 1);
        if self.words.get(i + 1).is_none_or(|w| finite(&bare(w)).is_some() || COPULAS.contains(&bare(w).as_str())) {
            return;
        }
        let mut end = self.clause_end(i + 1) - 1;
        // "waarschijnlijk u overspannen bent", "waarschijnlijk u een niersteen heeft": of the
        // patient, the state or what they have is the assessment
        if matches!(bare(&self.words[i + 1]).as_str(), "u" | "je" | "jij")
            && let Some(c) = (i + 2..=end).find(|&k| matches!(bare(&self.words[k]).as_str(), "bent" | "is" | "wordt" | "heeft" | "hebt"))
        {
            self.remove(c, 1);
            self.words.remove(i + 1);
            return;
        }
        // "… een infectie heeft en daardoor in de war is geraakt": two clauses that share the
        // subject; the first ends at its finite verb before "en"
        let joined = (i + 2..end).find(|&k| {
            let before = bare(&self.words[k - 1]);
            bare(&self.words[k]) == "en" && is_verb(&before) && !is_infinitive(&before)
        });
        if let Some(k) = joined {
            end = k - 1;
        }
        let Some(verb) = self.clause_finite(i + 1, end).filter(|&v| v > i + 2) else {
            // no finite verb the register can move: the thought stays a clause, whole
            // ("waarschijnlijk er een miskraam dreigt" → "De indruk is dat er een miskraam dreigt")
            let opening = ["de", "indruk", "is", "dat"].map(str::to_owned);
            let capital = self.words[i].starts_with(char::is_uppercase);
            self.words.splice(i..=i, opening);
            if capital {
                self.words[i] = style::capitalised(&self.words[i]);
            }
            return;
        };
        let word = self.take_word(verb);
        self.words.insert(i + 1, word);
        if let Some(k) = joined {
            // the second clause's finite verb follows "en": "en is daardoor in de war geraakt"
            let close = self.clause_end(k + 1) - 1;
            let finite_at = if is_verb(&bare(&self.words[close])) { close } else { close - 1 };
            if finite_at > k + 1 && is_verb(&bare(&self.words[finite_at])) {
                let word = self.take_word(finite_at);
                self.words.insert(k + 1, word);
            }
        }
    }

    /// The finite verb of the subordinate clause from its subject at `start` to `end`, which a main
    /// clause puts second: the clause's last word where the register knows it as a verb
    /// ("… niet beschadigd is"), the modal before the infinitive of a final cluster ("… serieus
    /// moeten nemen"), or a known verb that only a prepositional phrase or a comparison follows
    /// ("… een bijwerking zijn van de amlodipine", "… aan de hand is dan …"; an infinitive after
    /// "het" is a noun: "bij het ouder worden"). `None` where none is known, or where a relative
    /// clause between the subject and the verb could own the verb found.
    fn clause_finite(&self, start: usize, end: usize) -> Option<usize> {
        // "bij het ouder worden": an infinitive after "het" is a noun
        let noun = |k: usize| (k.saturating_sub(2)..k).any(|j| bare(&self.words[j]) == "het") && infinitive_shaped(&bare(&self.words[k]));
        let known = |k: usize| is_verb(&bare(&self.words[k])) && !noun(k);
        let mut verb = if known(end) {
            end
        } else {
            let k = (start + 1..end).rev().find(|&k| known(k))?;
            // "… meer aan de hand is dan …": a comparison may follow the verb too
            let next = bare(&self.words[k + 1]);
            (PREPOSITIONS.contains(&next.as_str()) || next == "dan").then_some(k)?
        };
        if verb > start + 1 && is_modal(&bare(&self.words[verb - 1])) && tail(&self.words[verb - 1]).is_empty() {
            verb -= 1;
        }
        let relative = (start..verb).any(|k| {
            let w = bare(&self.words[k]);
            SUBORDINATE.contains(&w.as_str()) || w == "die"
        });
        (!relative).then_some(verb)
    }

    /// Takes the word at `at` (`at > 0`) out of the sentence, leaving its punctuation to the word
    /// before it, and gives it back bare of punctuation.
    fn take_word(&mut self, at: usize) -> String {
        let punct = tail(&self.words[at]).to_owned();
        let word = trimmed(&self.words[at]).to_owned();
        self.words.remove(at);
        self.words[at - 1].push_str(&punct);
        word
    }

    /// E: "Dit noemen we etalagebenen: …" → "Etalagebenen: …", "De schildklier werkt te traag,
    /// dat noemen we hypothyreoïdie." → "… te traag: hypothyreoïdie.": the name the clinician
    /// gives is the assessment.
    fn named_as(&mut self) {
        let Some(i) = (0..self.words.len()).find(|&i| {
            matches!(bare(&self.words[i]).as_str(), "dat" | "dit")
                && (self.matches(i + 1, &["noemen", "we"]) || self.matches(i + 1, &["noem", "ik"]))
        }) else {
            return;
        };
        if i > 0 && !tail(&self.words[i - 1]).is_empty() {
            let w = &mut self.words[i - 1];
            w.truncate(w.len() - tail(w).len());
            w.push(':');
        } else if i > 0 {
            return;
        }
        self.words.drain(i..i + 3);
        if self.words.get(i).is_some_and(|w| matches!(bare(w).as_str(), "een" | "de" | "het") && tail(w).is_empty())
            && self.words.len() > i + 1
        {
            self.words.remove(i);
        }
    }

    /// The second-person verbs from the word at `from` to the end of the clause of the word at
    /// `at` in the third person ("bent" → "is", "kunt" → "kan").
    fn third_person_verbs(&mut self, from: usize, at: usize) {
        for k in from..self.clause_end(at) {
            if let Some(third) = second_person_third(&bare(&self.words[k])) {
                self.words[k] = keep_tail(&self.words[k], third);
            }
        }
    }

    /// One past the word at or after `from` that carries punctuation (the clause's last word), or
    /// the number of words.
    fn clause_end(&self, from: usize) -> usize {
        (from..self.words.len()).find(|&k| !tail(&self.words[k]).is_empty()).map_or(self.words.len(), |k| k + 1)
    }

    /// Moves the word at `at` to stand after the word at `end`, taking over that word's
    /// punctuation.
    fn move_word(&mut self, at: usize, end: usize) {
        let punct = tail(&self.words[end]).to_owned();
        let last = &mut self.words[end];
        last.truncate(last.len() - punct.len());
        let word = self.words.remove(at);
        self.words.insert(end, format!("{word}{punct}"));
    }

    /// Whether the clause from word `from` holds a past participle ("overlegd", "gebeld",
    /// "besproken", "opgestuurd", "klaargezet").
    fn participle_in_clause(&self, from: usize) -> bool {
        let shaped = |w: &str| {
            let prefixed = ["ge", "be", "ver", "ont", "her", "over"].iter().any(|p| w.starts_with(p))
                || SEPARABLE_PARTICLES.iter().any(|p| w.strip_prefix(p).is_some_and(|r| r.starts_with("ge")));
            w.chars().count() >= 6 && prefixed && (w.ends_with('d') || w.ends_with('t') || w.ends_with("en"))
        };
        (from..self.clause_end(from).min(self.words.len())).any(|k| shaped(&bare(&self.words[k])))
    }

    /// Whether a new clause starts at word `k`: a subordinator, "maar", "dus", "want", or "en"
    /// and "of" before a finite verb ("en komt de verpleegkundige", not "bloed en bloeddruk").
    fn clause_follows(&self, k: usize) -> bool {
        let Some(w) = self.words.get(k).map(|w| bare(w)) else { return false };
        if SUBORDINATE.contains(&w.as_str()) || matches!(w.as_str(), "maar" | "dus" | "want") {
            return true;
        }
        // "en passen we de dosis aan": a verb before its subject opens a clause too; "en in plaats
        // van schrapen slikt u even": a subject after its verb further on too, before any
        // punctuation or the next "en"
        let subject_after_verb = || {
            (k + 2..self.words.len().min(k + 8))
                .take_while(|&j| tail(&self.words[j - 1]).is_empty() && !matches!(bare(&self.words[j - 1]).as_str(), "en" | "of" | "maar"))
                .any(|j| matches!(bare(&self.words[j]).as_str(), "we" | "wij" | "ik" | "u") && verb_shaped(&bare(&self.words[j - 1])))
        };
        matches!(w.as_str(), "en" | "of")
            && (self.words.get(k + 1).is_some_and(|n| finite(&bare(n)).is_some())
                || self.words.get(k + 2).is_some_and(|n| matches!(bare(n).as_str(), "we" | "wij" | "ik" | "u"))
                || subject_after_verb())
    }

    /// "Er is drukpijn" → "Drukpijn", "Bij onderzoek is er zwelling" → "Bij onderzoek zwelling",
    /// "Er is sprake van depressieve klachten" → "Depressieve klachten": the existential "er is"
    /// goes whole, never half.
    fn existential(&mut self) {
        if self.matches(0, &["er", "is", "sprake", "van"]) || self.matches(0, &["er", "zijn", "aanwijzingen", "voor"]) {
            if self.words.len() > 4 {
                self.words.drain(..4);
            }
            return;
        }
        if (self.matches(0, &["er", "is"]) || self.matches(0, &["er", "zijn"])) && self.words.len() > 2 {
            self.words.drain(..2);
            return;
        }
        if let Some(i) = (1..self.words.len().min(5)).find(|&i| self.matches(i, &["is", "er"]) || self.matches(i, &["zijn", "er"]))
            && self.words[..i].iter().all(|w| tail(w).is_empty())
            && i + 2 < self.words.len()
        {
            self.words.drain(i..i + 2);
        }
    }

    fn drop_word(&mut self, word: &str) {
        let mut i = 0;
        while i < self.words.len() {
            if bare(&self.words[i]) == word && self.words.len() > 1 {
                self.remove(i, 1);
            } else {
                i += 1;
            }
        }
    }

    /// E: "De keelpijn is een virale keelontsteking" → "Virale keelontsteking"; any other subject
    /// keeps its verb ("De bloeddruk is nog te hoog"), as every O finding does ("De buik is
    /// soepel"): a telegram line without the verb says no more and loses what was said.
    fn copula_with_article(&mut self) {
        let start = usize::from(self.words.first().is_some_and(|w| matches!(bare(w).as_str(), "de" | "het")));
        if start == 0 {
            return;
        }
        for k in 1..=2 {
            let at = start + k;
            if at + 2 < self.words.len()
                && matches!(bare(&self.words[at]).as_str(), "is" | "zijn")
                && self.words[..at].iter().all(|w| tail(w).is_empty())
            {
                if bare(&self.words[at + 1]) == "een" {
                    self.words.drain(..at + 2);
                }
                return;
            }
        }
    }

    /// "De hoest past bij een prikkelhoest" → "prikkelhoest": the subject of "past bij" early in
    /// the sentence goes with it.
    fn drop_through_past_bij(&mut self) {
        let Some(i) = (0..self.words.len().min(5)).find(|&i| bare(&self.words[i]) == "past") else {
            return;
        };
        if self.words[..i].iter().any(|w| !tail(w).is_empty()) {
            return;
        }
        // "past bij", "past het best bij", "past dit goed bij": "bij" within the next three words,
        // in the same clause
        let end = self.words.len().min(i + 4);
        let Some(bij) = (i + 1..end).find(|&k| bare(&self.words[k]) == "bij") else {
            return;
        };
        // "Een beroerte past hier niet bij" keeps its negation
        if self.words[i..bij].iter().any(|w| !tail(w).is_empty() || matches!(bare(w).as_str(), "niet" | "slecht" | "minder")) {
            return;
        }
        let n = bij + 1 - i;
        // with words between, only a short subject goes ("Dit patroon past het best bij …"); "En
        // de hoest past goed bij een bijwerking" keeps what it judges
        if n > 2 && i > 2 {
            return;
        }
        // a subject of its own beside a clause that goes on keeps the sentence whole: "De onrust
        // 's nachts past bij haar dementie, maar pijn aan die hiel kan het erger maken" (not "Haar
        // dementie, maar …"); what was told or seen goes ("Wat u beschrijft past bij …")
        if i > 2 && bare(&self.words[0]) != "wat" && self.words[bij + 1..].iter().any(|w| !tail(w).is_empty() && !w.ends_with('.')) {
            return;
        }
        if i + n < self.words.len() {
            self.words.drain(..i + n);
            if self.words.len() > 1 && bare(&self.words[0]) == "een" {
                self.words.remove(0);
            }
        }
    }

    /// P: "Ik zie u over twee weken terug om …" → "Controle over 2 weken om …": the follow-up
    /// said as seeing the patient again, its "terug" within the clause.
    fn follow_up(&mut self) {
        if !self.matches(0, &["ik", "zie", "u"]) || !tail(&self.words[2]).is_empty() {
            return;
        }
        let end = self.clause_end(3);
        if let Some(k) = (3..end).find(|&k| bare(&self.words[k]) == "terug") {
            self.remove(k, 1);
            self.words.splice(..3, ["controle".to_owned()]);
        }
    }

    /// ", geen antibioticum voor nodig" (after "daar is" went) → ", geen antibioticum nodig".
    fn drop_dangling_voor_nodig(&mut self) {
        for i in 1..self.words.len() {
            if bare(&self.words[i - 1]) == "voor" && bare(&self.words[i]) == "nodig" && tail(&self.words[i - 1]).is_empty() {
                let before = self.words[..i - 1].iter().rev().take(4).any(|w| bare(w) == "geen");
                if before {
                    self.words.remove(i - 1);
                    return;
                }
            }
        }
    }

    /// After "Ik denk dat (dit)" went: "spanningshoofdpijn is door de drukte" → "spanningshoofdpijn
    /// door de drukte", "een subacromiaal pijnsyndroom is, een …" → "subacromiaal pijnsyndroom, een …",
    /// "een virus kan zijn" → "mogelijk virus".
    fn drop_is_of_thought(&mut self) {
        // "een virus kan zijn" → "mogelijk virus": the possibility stays
        if let Some(i) = (1..self.words.len().min(8)).find(|&i| {
            matches!(bare(&self.words[i - 1]).as_str(), "kan" | "zou")
                && tail(&self.words[i - 1]).is_empty()
                && bare(&self.words[i]) == "zijn"
        }) && (i + 1 == self.words.len() || !tail(&self.words[i]).is_empty())
        {
            self.remove(i - 1, 2);
            self.words.insert(0, "mogelijk".to_owned());
            return;
        }
        if self.words.first().is_some_and(|w| bare(w) == "een") && self.words.len() > 2 {
            self.words.remove(0);
        }
        if let Some(i) = self.words.iter().take(6).position(|w| bare(w) == "is")
            && i > 0
            && tail(&self.words[i - 1]).is_empty()
            && (i + 1 == self.words.len() || !tail(&self.words[i]).is_empty() || is_clause_word(&bare(&self.words[i + 1])))
        {
            self.remove(i, 1);
        }
    }

    /// P: "ik schrijf (u) naproxen voor, …" → "naproxen, …".
    fn prescription(&mut self) {
        // "ik schrijf (u)" at the start, "schrijf ik (u)" after "Voor de rug".
        let Some(i) = (0..self.words.len()).find(|&i| self.matches(i, &["ik", "schrijf"]) || self.matches(i, &["schrijf", "ik"])) else {
            return;
        };
        let mut n = 2;
        if self.words.get(i + 2).is_some_and(|w| matches!(bare(w).as_str(), "u" | "je") && tail(w).is_empty()) {
            n = 3;
        }
        // The "voor" that closes the object: before a comma, full stop, "en" or the end.
        let close = (i + n..self.words.len()).find(|&k| {
            bare(&self.words[k]) == "voor"
                && (!tail(&self.words[k]).is_empty()
                    || k + 1 == self.words.len()
                    || matches!(bare(&self.words[k + 1]).as_str(), "en" | "om" | "omdat" | "met"))
        });
        if let Some(k) = close {
            self.remove(k, 1);
            self.words.drain(i..i + n);
        }
    }

    /// First person to third: "ik" and its verb, "mijn", "me"; the patient's story in the
    /// clinician's register.
    fn third_person(&mut self) {
        let mut i = 0;
        while i < self.words.len() {
            let w = bare(&self.words[i]);
            match w.as_str() {
                "ik" => {
                    let prev = if i == 0 { None } else { Some(bare(&self.words[i - 1])) };
                    let clause_start = i == 0 || prev.as_deref().is_some_and(|p| matches!(p, "en" | "maar" | "want" | "dus" | "of")) || {
                        !tail(&self.words[i - 1]).is_empty()
                    };
                    let subordinate = opens_subordinate(&self.words, i);
                    let plural_verb = self.words.get(i + 1).map(|n| bare(n)).is_some_and(|n| finite(&n).is_some_and(|f| f.inf == n));
                    if prev.as_deref() == Some("en")
                        && tail(&self.words[i - 1]).is_empty()
                        && tail(&self.words[i]).is_empty()
                        && plural_verb
                    {
                        // one of two subjects: "Mijn vrouw en ik hebben twee kinderen" → "… en
                        // patiënt hebben 2 kinderen"
                        self.words[i] = "patiënt".to_owned();
                        i += 1;
                    } else if clause_start && !subordinate && i + 1 < self.words.len() && tail(&self.words[i]).is_empty() {
                        // "ik slaap" → "slaapt"; "ik slaap slecht en pieker veel" → "… en piekert veel".
                        self.words.remove(i);
                        self.words[i] = conjugate(&self.words[i]);
                        let end = self.words.len().min(i + 5);
                        if let Some(k) = (i + 1..end).find(|&k| bare(&self.words[k]) == "en" && tail(&self.words[k - 1]).is_empty())
                            && k + 2 < self.words.len()
                            && tail(&self.words[k + 1]).is_empty()
                            && !matches!(
                                bare(&self.words[k + 1]).as_str(),
                                "ik" | "het" | "er" | "de" | "een" | "mijn" | "dat" | "die" | "ook" | "nu" | "dan"
                            )
                        {
                            self.words[k + 1] = conjugate(&self.words[k + 1]);
                        }
                        i += 1;
                    } else if subordinate {
                        // "omdat ik zo moe ben" → "omdat patiënt zo moe is": the clause keeps a
                        // subject ("dat ging" is no Dutch), unless another tells the history
                        // ("omdat zo moe is"); the verb is further on.
                        if self.told {
                            self.words.remove(i);
                        } else {
                            self.words[i] = keep_tail(&self.words[i], "patiënt");
                            i += 1;
                        }
                        // The verb: a known first-person form, the word before the main clause's
                        // verb where no comma parts them ("als ik diep inadem is het erger"), or
                        // else the clause's last word.
                        let end = self.words.len().min(i + 6);
                        let before_main = |k: usize| {
                            is_stem(&bare(&self.words[k]))
                                && tail(&self.words[k]).is_empty()
                                && self.words.get(k + 1).is_some_and(|n| {
                                    let n = bare(n);
                                    matches!(n.as_str(), "is" | "wordt" | "gaat" | "doet")
                                        || finite(&n).is_some_and(|f| f.third == n && f.inf != n)
                                })
                        };
                        let verb = (i..end)
                            .find(|&k| first_person_verb(&bare(&self.words[k])).is_some())
                            .or_else(|| (i..end).find(|&k| before_main(k)))
                            .or_else(|| (i..end).find(|&k| !tail(&self.words[k]).is_empty() || k + 1 == self.words.len()));
                        if let Some(k) = verb {
                            self.words[k] = conjugate(&self.words[k]);
                        }
                    } else if i > 0
                        && tail(&self.words[i - 1]).is_empty()
                        && !known_first_person(&bare(&self.words[i - 1]))
                        && self.words.get(i + 1).is_some_and(|w| {
                            let next = bare(w);
                            // or a stem after an adjective, no verb before "ik": "heel heftig ik
                            // bloed zeven dagen"
                            known_first_person(&next) || (adjective_shaped(&bare(&self.words[i - 1])) && is_stem(&next))
                        })
                    {
                        // A typed transcript without commas: "niet goed ik ben al moe" is two
                        // clauses, and the verb is the one after "ik".
                        self.words.remove(i);
                        self.words[i] = conjugate(&self.words[i]);
                        i += 1;
                    } else if prev.as_deref().is_some_and(|p| matches!(p, "dan" | "als"))
                        && tail(&self.words[i - 1]).is_empty()
                        && (!tail(&self.words[i]).is_empty() || i + 1 == self.words.len())
                    {
                        // the speaker compared: "maakt zich meer zorgen dan ik;" → "… dan
                        // patiënt;", never "… dan;"
                        self.words[i] = keep_tail(&self.words[i], "patiënt");
                        i += 1;
                    } else if i > 0 && tail(&self.words[i - 1]).is_empty() {
                        // "slaap ik" → "slaapt"; after a fronted "dat", "daarvoor" or "dan" the
                        // subject stays, named, or the fronted word reads as the subject: "dat
                        // wilde ik ook nog vragen" → "dat wilde patiënt ook nog vragen", not "dat
                        // wilde ook nog vragen"
                        let p = i - 1;
                        self.words[p] = conjugate(&self.words[p]);
                        let fronted =
                            p > 0 && tail(&self.words[p - 1]).is_empty() && FRONTED_OBJECTS.contains(&bare(&self.words[p - 1]).as_str());
                        if fronted && !self.told {
                            self.words[i] = keep_tail(&self.words[i], "patiënt");
                            // "daarom maak ik me zorgen" → "daarom maakt patiënt zich zorgen"
                            if tail(&self.words[i]).is_empty()
                                && self.words.get(i + 1).is_some_and(|w| matches!(bare(w).as_str(), "me" | "mij"))
                            {
                                self.words[i + 1] = keep_tail(&self.words[i + 1], "zich");
                            }
                            i += 1;
                        } else {
                            self.remove(i, 1);
                        }
                    } else {
                        self.remove(i, 1);
                    }
                }
                "mij" | "me"
                    if i > 0
                        && matches!(
                            bare(&self.words[i - 1]).as_str(),
                            "zonder" | "voor" | "met" | "bij" | "naar" | "aan" | "tegen" | "over" | "volgens" | "achter" | "naast"
                        ) =>
                {
                    // the speaker spoken of is the patient ("ze kijken naar me" → "… naar
                    // patiënt"), or the subject itself: "voor me uit geschoven", "(ik heb) de
                    // lijst bij me" → "zich"
                    let t = tail(&self.words[i]).to_owned();
                    let prep = bare(&self.words[i - 1]);
                    // "Volgens mij heb ik koorts" → "Heeft koorts": the opinion is the patient's
                    // own, so the verb and its "ik" say it
                    if prep == "volgens" && t.is_empty() && self.words.get(i + 2).is_some_and(|w| bare(w) == "ik") {
                        self.remove(i - 1, 2);
                        i -= 1;
                        continue;
                    }
                    let has = (0..i).any(|k| matches!(bare(&self.words[k]).as_str(), "heb" | "heeft" | "had"));
                    let reflexive = (prep == "voor" && self.words.get(i + 1).is_some_and(|w| bare(w) == "uit") && t.is_empty())
                        || (prep == "bij" && (has || !t.is_empty() || i + 1 == self.words.len()));
                    self.words[i] = format!("{}{t}", if reflexive { "zich" } else { "patiënt" });
                    i += 1;
                }
                "mijn" | "m'n" | "mij" | "me" if self.words.len() > 1 => {
                    let reflexive = w == "me"
                        && i > 0
                        && matches!(bare(&self.words[i - 1]).as_str(), "voelt" | "voelde" | "schaamt" | "zorgen" | "ergert");
                    if reflexive {
                        let t = tail(&self.words[i]).to_owned();
                        self.words[i] = format!("zich{t}");
                        i += 1;
                    } else {
                        self.remove(i, 1);
                    }
                }
                "mezelf" => {
                    let t = tail(&self.words[i]).to_owned();
                    self.words[i] = format!("zichzelf{t}");
                    i += 1;
                }
                // the patient's household or couple: "we zijn vorige week naar Spanje geweest" →
                // "ze zijn …" (the plural verb stays), "onze dochter" → "hun dochter", "bij ons
                // thuis" → "bij hen thuis", "ons zoontje" → "hun zoontje"
                "we" | "wij" | "onze" | "ons" => {
                    let object = w == "ons"
                        && (!tail(&self.words[i]).is_empty()
                            || self.words.get(i + 1).is_none_or(|next| {
                                matches!(
                                    bare(next).as_str(),
                                    "in" | "thuis" | "weer" | "nu" | "te" | "op" | "aan" | "mee" | "niet" | "ook" | "wel" | "al" | "nog"
                                ) || is_infinitive(&bare(next))
                                    || (bare(next).ends_with("en") && !tail(next).is_empty())
                            }));
                    let third = match w.as_str() {
                        "we" => "ze",
                        "wij" => "zij",
                        _ if object => "hen",
                        _ => "hun",
                    };
                    self.words[i] = keep_tail(&self.words[i], third);
                    i += 1;
                }
                _ => i += 1,
            }
        }
    }
}

/// Finite verbs that may close a subordinate clause, besides the copulas and [`VERBS`].
const CLAUSE_VERBS: &[&str] = &[
    "komt", "komen", "gaat", "gaan", "zit", "zitten", "speelt", "spelen", "past", "passen", "kan", "kunnen", "zal", "zullen", "moet",
    "moeten",
];

/// Whether `w` (lowercase) is a modal or "gaan", which take an infinitive ("moet", "kunt", "gaat").
fn is_modal(w: &str) -> bool {
    matches!(
        w,
        "moet"
            | "moeten"
            | "kunt"
            | "kun"
            | "kan"
            | "kunnen"
            | "mag"
            | "mogen"
            | "gaat"
            | "gaan"
            | "ga"
            | "zal"
            | "zullen"
            | "wil"
            | "willen"
            | "zou"
            | "zouden"
    )
}

/// Whether `w` (lowercase) looks like an infinitive, or a plural verb ("wandelen", "voegen"): it
/// ends in "-en" and is none of the words that do so without being verbs ("even", "binnen").
fn infinitive_shaped(w: &str) -> bool {
    w.len() > 3
        && w.ends_with("en")
        && !matches!(
            w,
            "een"
                | "geen"
                | "tien"
                | "zeven"
                | "negen"
                | "even"
                | "open"
                | "boven"
                | "beneden"
                | "binnen"
                | "buiten"
                | "tussen"
                | "tegen"
                | "zonder"
                | "volgen"
                | "morgen"
                | "nuchteren"
                | "samen"
                | "alleen"
                | "meteen"
                | "dagen"
                | "weken"
                | "maanden"
                | "jaren"
                | "uren"
                | "minuten"
                | "tabletten"
                | "ogen"
                | "benen"
                | "tenen"
                | "voeten"
                | "handen"
                | "klachten"
                | "mensen"
                | "kinderen"
        )
}

/// The finite verb after or before the clinician's "we" ([`finite`]), or, for a verb the
/// register does not know, its plural, which is the infinitive ("we voegen een tablet toe" →
/// "een tablet toevoegen").
fn finite_with_we(w: &str) -> Option<Finite> {
    finite(w).or_else(|| {
        (infinitive_shaped(w) && !PAST_PLURALS.contains(&w)).then(|| Finite {
            inf: w.to_owned(),
            third: w.to_owned(),
            imperative: w.to_owned(),
        })
    })
}

/// Verbs of what comes to the patient rather than what they do: in the plan they stay in the third
/// person, never the imperative ("hoort van het ziekenhuis", not "hoor van het ziekenhuis").
const RECEIVED: &[&str] = &["horen", "krijgen", "voelen"];

/// Plurals of the past that look like infinitives ("we hadden een afspraak"): no plan.
const PAST_PLURALS: &[&str] = &[
    "hadden", "waren", "wilden", "konden", "moesten", "zouden", "gingen", "kwamen", "kregen", "deden", "zagen", "werden", "zaten", "lagen",
    "dachten", "spraken", "hoorden", "vonden", "begonnen", "stopten", "besloten",
];

/// Prepositions that open a phrase after a clause's verb ("… een bijwerking zijn van de
/// amlodipine", "… niet genoeg is om de suiker te regelen").
const PREPOSITIONS: &[&str] =
    &["van", "door", "bij", "in", "op", "voor", "met", "na", "aan", "naar", "uit", "over", "tegen", "zonder", "tijdens", "vanwege", "om"];

/// Conjunctions after which a main clause starts.
const COORDINATORS: &[&str] = &["en", "maar", "dus", "want", "of", "dan"];

/// A finite verb form of the clinician's or the addressee's sentence, and what it becomes.
struct Finite {
    /// The infinitive ("verhogen").
    inf: String,
    /// The third person singular ("verhoogt").
    third: String,
    /// The imperative ("verhoog").
    imperative: String,
}

/// The verbs a clinician says with "ik", "we", "u" or "je", in every finite form: (infinitive,
/// first person, third person, imperative). Only these are rewritten; another word after a
/// pronoun leaves the clause as it was.
const VERBS: &[(&str, &str, &str, &str)] = &[
    ("zijn", "ben", "is", "wees"),
    ("hebben", "heb", "heeft", "heb"),
    ("gaan", "ga", "gaat", "ga"),
    ("doen", "doe", "doet", "doe"),
    ("zien", "zie", "ziet", "zie"),
    ("staan", "sta", "staat", "sta"),
    ("kunnen", "kan", "kan", "kan"),
    ("willen", "wil", "wil", "wil"),
    ("zullen", "zal", "zal", "zal"),
    ("mogen", "mag", "mag", "mag"),
    ("moeten", "moet", "moet", "moet"),
    ("komen", "kom", "komt", "kom"),
    ("nemen", "neem", "neemt", "neem"),
    ("geven", "geef", "geeft", "geef"),
    ("schrijven", "schrijf", "schrijft", "schrijf"),
    ("verhogen", "verhoog", "verhoogt", "verhoog"),
    ("verlagen", "verlaag", "verlaagt", "verlaag"),
    ("stoppen", "stop", "stopt", "stop"),
    ("starten", "start", "start", "start"),
    ("beginnen", "begin", "begint", "begin"),
    ("houden", "houd", "houdt", "houd"),
    ("blijven", "blijf", "blijft", "blijf"),
    ("prikken", "prik", "prikt", "prik"),
    ("meten", "meet", "meet", "meet"),
    ("wegen", "weeg", "weegt", "weeg"),
    ("bespreken", "bespreek", "bespreekt", "bespreek"),
    ("maken", "maak", "maakt", "maak"),
    ("sturen", "stuur", "stuurt", "stuur"),
    ("vragen", "vraag", "vraagt", "vraag"),
    ("verwijzen", "verwijs", "verwijst", "verwijs"),
    ("kijken", "kijk", "kijkt", "kijk"),
    ("bellen", "bel", "belt", "bel"),
    ("drinken", "drink", "drinkt", "drink"),
    ("gebruiken", "gebruik", "gebruikt", "gebruik"),
    ("ademen", "adem", "ademt", "adem"),
    ("krijgen", "krijg", "krijgt", "krijg"),
    ("zoeken", "zoek", "zoekt", "zoek"),
    ("controleren", "controleer", "controleert", "controleer"),
    ("herhalen", "herhaal", "herhaalt", "herhaal"),
    ("spreken", "spreek", "spreekt", "spreek"),
    ("plannen", "plan", "plant", "plan"),
    ("noemen", "noem", "noemt", "noem"),
    ("voelen", "voel", "voelt", "voel"),
    ("horen", "hoor", "hoort", "hoor"),
    ("wandelen", "wandel", "wandelt", "wandel"),
    ("oefenen", "oefen", "oefent", "oefen"),
    ("smeren", "smeer", "smeert", "smeer"),
    ("rusten", "rust", "rust", "rust"),
    ("slapen", "slaap", "slaapt", "slaap"),
    ("eten", "eet", "eet", "eet"),
    ("lopen", "loop", "loopt", "loop"),
    ("wachten", "wacht", "wacht", "wacht"),
    ("hoeven", "hoef", "hoeft", "hoef"),
    ("schuiven", "schuif", "schuift", "schuif"),
    ("laten", "laat", "laat", "laat"),
    ("brengen", "breng", "brengt", "breng"),
];

/// The finite verb `w` (lowercase), if it is one the record voice rewrites: a first or third
/// person ("heb", "heeft"), the second ("hebt", "bent", "kunt") or the plural ("hebben").
fn finite(w: &str) -> Option<Finite> {
    let second = match w {
        "bent" => Some("zijn"),
        "hebt" => Some("hebben"),
        "kunt" | "kun" => Some("kunnen"),
        "wilt" => Some("willen"),
        "zult" => Some("zullen"),
        // the past of the plan already made ("we zouden vandaag kijken …")
        "zou" | "zouden" => Some("zullen"),
        _ => None,
    };
    VERBS.iter().find(|(inf, first, third, _)| second == Some(*inf) || *inf == w || *first == w || *third == w).map(
        |(inf, _, third, imperative)| Finite { inf: (*inf).to_owned(), third: (*third).to_owned(), imperative: (*imperative).to_owned() },
    )
}

/// The particles of separable verbs, joined to a finite form ("bijhoudt") or before the "ge" of a
/// participle ("klaargezet", "voorgeschreven").
const SEPARABLE_PARTICLES: &[&str] =
    &["bij", "op", "aan", "af", "in", "uit", "mee", "na", "door", "terug", "toe", "weg", "over", "samen", "vast", "los", "voor", "klaar"];

/// The infinitive of a separable verb's joined finite form the register knows by its stem:
/// "bijhoudt" → "bijhouden", "meeneemt" → "meenemen".
fn separable_infinitive(w: &str) -> Option<String> {
    let particle = SEPARABLE_PARTICLES.iter().find(|p| w.len() > p.len() + 2 && w.starts_with(**p))?;
    let stem = &w[particle.len()..];
    finite(stem).filter(|f| f.inf != stem).map(|f| format!("{particle}{}", f.inf))
}

/// Whether `w` (lowercase) is a verb the register knows: a copula, a finite form of [`VERBS`], or
/// a verb that closes a clause ([`CLAUSE_VERBS`]).
fn is_verb(w: &str) -> bool {
    COPULAS.contains(&w) || finite(w).is_some() || CLAUSE_VERBS.contains(&w)
}

/// Whether `w` (lowercase), the first word of a question, is a verb that opens a yes-or-no
/// question other than asking leave ("mag", "mogen").
pub(crate) fn opens_question(w: &str) -> bool {
    !matches!(w, "mag" | "mogen") && is_verb(w)
}

/// Whether `s` opens as a yes-or-no question does: a finite verb, then its subject ("drinkt en eet
/// ze goed", "moet ik stoppen met de zinkzalf"), where a typed transcript left out the question
/// mark; the subject is given back ("ze", "ik").
pub(crate) fn verb_then_subject(s: &str) -> Option<&'static str> {
    if states_a_condition(s) {
        return None;
    }
    let all: Vec<String> = s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
    let words = &all[..all.len().min(4)];
    let (first, rest) = words.split_first()?;
    if !is_verb(first) {
        return None;
    }
    // "drinkt en eet ze": a second verb joined by "en" before the subject
    let rest = match rest {
        [and, verb, rest @ ..] if and == "en" && is_verb(verb) => rest,
        rest => rest,
    };
    let subject = rest.first()?;
    SUBJECTS.iter().find(|p| **p == subject.as_str()).copied()
}

/// Whether `s`, opening as a question does, states a condition with its consequence after "dan":
/// "krijg je toch afscheiding dan kom je eerder terug", "wordt hij benauwder bel dan meteen".
pub(crate) fn states_a_condition(s: &str) -> bool {
    s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).skip(3).any(|w| w.eq_ignore_ascii_case("dan"))
}

/// Whether `s` opens with a clause of "wat" and its subject, as the subject of a statement: "wat
/// je beschrijft is een normale rouwreactie" (a question turns verb and subject round: "wat heb
/// je gedaan").
pub(crate) fn opens_with_what_clause(s: &str) -> bool {
    let mut words = s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty());
    words.next().is_some_and(|w| w.eq_ignore_ascii_case("wat"))
        && words.next().is_some_and(|w| SUBJECTS.iter().any(|p| w.eq_ignore_ascii_case(p) && !matches!(*p, "het" | "er")))
}

/// Subject pronouns after a question's verb ([`verb_then_subject`]).
const SUBJECTS: &[&str] = &["ik", "u", "je", "jij", "hij", "ze", "zij", "het", "er", "we", "wij"];

/// Whether `w` (lowercase) is an infinitive the register knows ("krijgen", "worden", "laten").
fn is_infinitive(w: &str) -> bool {
    matches!(w, "worden" | "zijn" | "laten" | "krijgen") || finite(w).is_some_and(|f| f.inf == w)
}

/// The words by which a speaker speaks as themselves or to the other: a question holding one is
/// quoted rather than turned round.
const PERSONAL: &[&str] = &["ik", "mijn", "me", "mij", "we", "wij", "ons", "onze", "je", "jij", "jou", "jouw", "u", "uw"];

/// Words a list of things ("cholesterol, suiker en nierfunctie") does not hold: subjects,
/// conjunctions of clauses, and the prepositions and time words of a clause's adverbials ("en bij
/// bewegen kraakt hij", "'s ochtends en 's avonds").
const LIST_BREAKERS: &[&str] = &[
    "maar", "dus", "want", "ik", "we", "wij", "u", "je", "jij", "hij", "zij", "ze", "er", "men", "bij", "met", "in", "op", "aan", "voor",
    "na", "door", "van", "naar", "om", "over", "tegen", "tot", "uit", "zonder", "tijdens", "'s", "dan", "daarna", "nu",
];

/// The third person of a second-person form that differs from it ("bent" → "is").
pub(crate) fn second_person_third(w: &str) -> Option<&'static str> {
    match w {
        "bent" => Some("is"),
        "hebt" => Some("heeft"),
        "kunt" | "kun" => Some("kan"),
        "wilt" => Some("wil"),
        "zult" => Some("zal"),
        _ => None,
    }
}

/// Openings of a fronted time or adverb, after which the verb comes before its subject.
const FRONTED: &[&str] = &[
    "over",
    "dan",
    "daarna",
    "nu",
    "straks",
    "morgen",
    "vandaag",
    "in",
    "na",
    "eerst",
    "vanaf",
    "elke",
    "iedere",
    "tot",
    "vanavond",
    "daarnaast",
    "ook",
    "verder",
    "zo",
    "die",
    "dat",
    "dit",
    "daar",
    "daarvoor",
    "daarmee",
    "hiervoor",
    "hiermee",
];

/// `new` in the place of `old`, with `old`'s punctuation and capital.
fn keep_tail(old: &str, new: &str) -> String {
    let t = tail(old);
    let capital = old.chars().next().is_some_and(char::is_uppercase);
    let word = if capital { style::capitalised(new) } else { new.to_owned() };
    format!("{word}{t}")
}

/// Whether `w` (lowercase) is a verb the register knows, or has a finite verb's "-t" ("slikt",
/// "drinkt"), the few short words that end so aside.
fn verb_shaped(w: &str) -> bool {
    finite(w).is_some()
        || second_person_third(w).is_some()
        || is_verb(w)
        || (w.ends_with('t') && w.chars().count() > 3 && !matches!(w, "niet" | "echt" | "eerst" | "licht" | "nacht" | "best" | "vast"))
}

fn is_clause_word(w: &str) -> bool {
    matches!(w, "door" | "bij" | "na" | "met" | "van" | "in" | "op" | "omdat" | "want" | "en" | "maar")
}

/// The third person of a first-person verb form ("heb" → "heeft", "slaap" → "slaapt").
fn first_person_verb(w: &str) -> Option<String> {
    let irregular = [("heb", "heeft"), ("ben", "is"), ("ga", "gaat"), ("doe", "doet"), ("sta", "staat"), ("zie", "ziet"), ("sla", "slaat")];
    if let Some((_, t)) = irregular.iter().find(|(f, _)| *f == w) {
        return Some((*t).to_owned());
    }
    // Compounds: "opsta" → "opstaat", "doorga" → "doorgaat".
    if let Some((f, t)) = irregular[2..].iter().find(|(f, _)| w.len() > f.len() + 1 && w.ends_with(f)) {
        return Some(format!("{}{t}", &w[..w.len() - f.len()]));
    }
    let same = [
        "kan",
        "wil",
        "zal",
        "mag",
        "moet",
        "had",
        "was",
        "zou",
        "kon",
        "wou",
        "werd",
        "mocht",
        "moest",
        "durfde",
        // strong and irregular past tenses: the same for every singular person
        "kwam",
        "vond",
        "ging",
        "zag",
        "deed",
        "lag",
        "zat",
        "liep",
        "sliep",
        "viel",
        "hield",
        "kreeg",
        "nam",
        "gaf",
        "las",
        "at",
        "dronk",
        "stond",
        "bleef",
        "schreef",
        "dacht",
        "bracht",
        "zocht",
        "kocht",
        "wist",
        "zei",
        "vroeg",
        "reed",
        "werkte",
        "begon",
        "schrok",
        "brak",
        "verloor",
        "vergat",
        "zweeg",
        "droeg",
        "trok",
        "sprong",
        "hoorde",
        "voelde",
        "merkte",
        "sloeg",
        "stak",
        "sprak",
        "keek",
        "leek",
        "riep",
        "hing",
        "zong",
        "vloog",
        "kroop",
        "schoot",
        "koos",
        "bleek",
        "greep",
        "beet",
        "gleed",
        "liet",
        "ving",
        "trof",
        "verdween",
        "vertrok",
        "bewoog",
        "begreep",
        "kneep",
        "sneed",
        "struikelde",
        "stootte",
    ];
    if same.contains(&w) {
        return Some(w.to_owned());
    }
    None
}

/// Whether `w` (lowercase) is a first person the register knows: an irregular or past form, or
/// one of [`VERBS`] ("voel", "maak").
fn known_first_person(w: &str) -> bool {
    first_person_verb(w).is_some() || VERBS.iter().any(|(_, first, _, _)| *first == w)
}

/// Whether `w` has an adjective's ending, which no verb's stem before "ik" has: "heftig",
/// "moeilijk", "logisch", "zichtbaar".
fn adjective_shaped(w: &str) -> bool {
    w.len() > 4 && ["ig", "lijk", "isch", "baar", "loos", "zaam"].iter().any(|e| w.ends_with(e))
}

/// Whether `w` (lowercase) may be a present-tense first person of a regular verb ("stoor",
/// "zie"): what [`conjugate`] turns into the third person by adding a "t".
fn is_stem(w: &str) -> bool {
    w.len() >= 2
        && w.chars().all(char::is_alphabetic)
        && !w.ends_with('t')
        && !w.ends_with('e')
        && !w.ends_with("en")
        && ![
            "al", "ook", "nog", "niet", "wel", "zo", "bijna", "nu", "dan", "er", "het", "een", "de", "die", "dat", "vaak", "soms",
            "verder", "weer", "meer", "eerder", "later", "zeker", "echt", "geen", "hoeveel", "hier", "daar", "waar", "toch", "erg",
            "koorts", "pijn", "maar", "beter", "minder", "vaker", "liever",
        ]
        .contains(&w)
}

/// A phrase as the patient's own words put it ("rook niet", "slaap er slecht", "geen pijn in mijn
/// rug"), said of the patient as the note says it: "rookt niet", "slaapt er slecht", "geen pijn in
/// rug". Its first word is the verb where it is a first person's; "ik", "mijn", "mij" and "me" go.
pub(crate) fn said_of_patient(phrase: &str) -> String {
    let words: Vec<&str> = phrase.split_whitespace().filter(|w| !matches!(bare(w).as_str(), "ik" | "mijn" | "mij" | "me")).collect();
    let Some((first, rest)) = words.split_first() else { return String::new() };
    let lower = first.to_lowercase();
    let verb = if known_first_person(&lower)
        || (is_stem(&lower)
            && rest.first().is_some_and(|w| {
                matches!(bare(w).as_str(), "niet" | "nooit" | "slecht" | "er" | "zo" | "heel" | "al" | "ook" | "weinig" | "veel")
            })) {
        conjugate(first)
    } else {
        (*first).to_owned()
    };
    std::iter::once(verb.as_str()).chain(rest.iter().copied()).collect::<Vec<_>>().join(" ")
}

/// Conjugates a word that follows or precedes "ik" to the third person, keeping its case and
/// punctuation. Words that cannot be a present-tense first person stay.
fn conjugate(word: &str) -> String {
    let t = tail(word).to_owned();
    let core = &word[..word.len() - t.len()];
    let lower = core.to_lowercase();
    let capital = core.chars().next().is_some_and(char::is_uppercase);
    let out = match first_person_verb(&lower) {
        Some(v) => v,
        // "slaap" → "slaapt", "word" → "wordt"
        None if is_stem(&lower) => format!("{lower}t"),
        None => lower,
    };
    let out = if capital { style::capitalised(&out) } else { out };
    format!("{out}{t}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reserve_a_pointer_at_a_value_and_a_far_er_stay_whole() {
        // "zover ik weet" had become "zovert weet"
        assert_eq!(s("Niet gevallen voor zover ik weet."), "Niet gevallen voor zover bekend.");
        assert_eq!(
            clinical(Section::Evaluation, Speaker::Zorgverlener, "Die 62 is te hoog, het streven is onder de 53."),
            "62 is te hoog, het streven is onder de 53."
        );
        // the "er" goes to its particle, not to the preposition of a noun phrase before it
        assert_eq!(
            s("Ik heb er al een paar dagen een zalfje van de drogist op gedaan, maar dat hielp niet."),
            "Al een paar dagen een zalfje van de drogist erop gedaan, maar dat hielp niet."
        );
    }

    #[test]
    fn the_clinician_addressed_by_title_and_the_clinician_s_asides_leave_the_record() {
        assert_eq!(
            s("Zitten lukt niet, dokter, ik kan niet stilzitten van de pijn."),
            "Zitten lukt niet, kan niet stilzitten van de pijn."
        );
        assert_eq!(s("Goedemiddag dokter, ik kom voor mijn knie."), "Komt voor knie.");
        assert_eq!(s("Nee dokter, ik voel me al dagen hondsberoerd."), "Nee, voelt zich al dagen hondsberoerd.");
        // a place stays
        assert_eq!(s("Ik ben vorige week bij de dokter geweest."), "Vorige week bij de dokter geweest.");
        let e = |t: &str| clinical(Section::Evaluation, Speaker::Zorgverlener, t);
        let p = |t: &str| clinical(Section::Plan, Speaker::Zorgverlener, t);
        assert_eq!(e("Dat begrijp ik, maar de vooruitzichten zijn heel goed."), "De vooruitzichten zijn heel goed.");
        assert_eq!(e("Wat u vertelt maakt me ongerust."), "Wat patiënt vertelt is zorgwekkend.");
        assert_eq!(e("Een breuk kan ik niet uitsluiten."), "Breuk niet uitgesloten.");
        assert_eq!(p("Maak daarna een afspraak op mijn spreekuur."), "Maak daarna een afspraak op het spreekuur.");
        assert_eq!(p("Ik stel voor dat u een eetdagboek bijhoudt."), "Voorstel dat patiënt een eetdagboek bijhoudt.");
        assert_eq!(p("Komen jullie terug als het na drie maanden niet beter gaat."), "Terugkomen als het na 3 maanden niet beter gaat.");
        assert_eq!(p("Over zes weken komen jullie terug met het dagboek."), "Over 6 weken terugkomen met het dagboek.");
        assert_eq!(e("Er zijn geen plannen om uzelf iets aan te doen."), "Geen plannen om zichzelf iets aan te doen.");
        // typed without its pause, the nod stays as it was said
        assert!(p("Dat snap ik we gaan er samen mee aan de slag.").starts_with("Dat snap"));
    }

    #[test]
    fn the_patient_s_own_words_of_a_fact_as_the_note_says_them() {
        assert_eq!(said_of_patient("rook niet"), "rookt niet");
        assert_eq!(said_of_patient("slaap er slecht"), "slaapt er slecht");
        assert_eq!(said_of_patient("geen pijn in mijn rug"), "geen pijn in rug");
        // a noun first stays a noun
        assert_eq!(said_of_patient("koorts"), "koorts");
        assert_eq!(said_of_patient("rug pijnlijk"), "rug pijnlijk");
    }

    #[test]
    fn a_fronted_object_keeps_the_patient_as_subject() {
        assert_eq!(s("Dat wilde ik ook nog vragen."), "Dat wilde patiënt ook nog vragen.");
        assert_eq!(s("Mijn moeder had het ook, daarom maak ik me zorgen."), "Moeder had het ook, daarom maakt patiënt zich zorgen.");
        assert_eq!(s("Sinds gisteren heb ik koorts."), "Sinds gisteren heeft koorts.");
        assert_eq!(
            s("Vooral 's nachts als ik plat lig komt het zuur omhoog."),
            "Vooral 's nachts als patiënt plat ligt komt het zuur omhoog."
        );
    }

    #[test]
    fn a_subordinate_clause_keeps_the_patient_as_its_subject() {
        let p = |t: &str| clinical(Section::Plan, Speaker::Zorgverlener, t);
        assert_eq!(p("Bel als u koorts krijgt."), "Bel als patiënt koorts krijgt.");
        assert_eq!(p("Als je somberder wordt, eerder bellen."), "Als patiënt somberder wordt, eerder bellen.");
        // a "je" before a noun is whose
        assert_eq!(p("Als je ogen veel jeuken, oogdruppels gebruiken."), "Als ogen veel jeuken, oogdruppels gebruiken.");
        // … also before a copula, a plural or a verb the noun does; a verb of "je" alone or one
        // with an object makes "je" the subject
        assert_eq!(p("Bel als je vriend ook stopt."), "Bel als vriend ook stopt.");
        assert_eq!(p("Bel als je ogen pijn gaan doen."), "Bel als ogen pijn gaan doen.");
        assert_eq!(p("Bel als je koorts krijgt."), "Bel als patiënt koorts krijgt.");
        assert_eq!(p("Bel zolang je klachten hebt."), "Bel zolang patiënt klachten heeft.");
        let e = |t: &str| clinical(Section::Evaluation, Speaker::Zorgverlener, t);
        assert_eq!(
            e("Omdat je toen geen HPV had, is de kans nu heel klein."),
            "Omdat patiënt toen geen HPV had, is de kans nu heel klein."
        );
        assert_eq!(e("Omdat je cyclus onregelmatig was, is het lastig."), "Omdat cyclus onregelmatig was, is het lastig.");
        // a relative "die" after its noun opens one too; after a preposition it points
        let o = |t: &str| clinical(Section::Objective, Speaker::Zorgverlener, t);
        assert_eq!(
            o("De vragenlijst die u in de wachtkamer heeft ingevuld geeft een distressscore van 24."),
            "De vragenlijst die patiënt in de wachtkamer heeft ingevuld geeft een distressscore van 24."
        );
        let words = |t: &str| t.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        assert!(opens_subordinate(&words("de pillen die u neemt"), 3));
        assert!(!opens_subordinate(&words("vraag naar die u"), 3));
    }

    #[test]
    fn gewoon_closing_a_clause_is_normally() {
        assert_eq!(s("Plassen gaat gewoon, en ik heb geen koorts."), "Plassen gaat normaal, en heeft geen koorts.");
        assert_eq!(s("Hij praat gewoon."), "Hij praat normaal.");
        assert_eq!(s("Ik ben gewoon moe."), "Moe.");
    }

    #[test]
    fn the_patients_asides_to_the_clinician_leave_the_history() {
        assert_eq!(s("Nu u het zegt, vorig jaar heb ik een keer ibuprofen genomen."), "Vorig jaar heeft een keer ibuprofen genomen.");
        assert_eq!(s("Slecht, ik strompel zoals u ziet."), "Slecht, strompelt.");
        assert_eq!(s("Ik weeg me elke ochtend, zoals u had gezegd."), "Weegt elke ochtend, zoals geadviseerd.");
        assert_eq!(s("U hoort het al, ik ben al drie weken hees."), "Is al 3 weken hees.");
    }

    #[test]
    fn the_practice_is_named_where_the_clinician_is_the_one_to_call() {
        for (said, record) in [
            (
                "Voorstel: een paar gesprekken met onze praktijkondersteuner GGZ.",
                "Voorstel: een paar gesprekken met de praktijkondersteuner GGZ.",
            ),
            ("Wordt het erger, bel me dan over 2 weken.", "Wordt het erger, bel de huisarts dan over 2 weken."),
            ("Bel ons.", "Bel de praktijk."),
            ("Wordt het niet minder, dan ons bellen of mailen.", "Wordt het niet minder, dan de praktijk bellen of mailen."),
            ("Krijgt spierpijn, laat het me dan weten.", "Krijgt spierpijn, laat het de huisarts dan weten."),
            ("Een afspraak bij mij of bij onze POH.", "Een afspraak bij de huisarts of bij de POH."),
            ("Neemt niet op als ons nummer belt.", "Neemt niet op als het praktijknummer belt."),
            ("Mij gerust bellen met vragen.", "De huisarts gerust bellen met vragen."),
            ("Laat de thuiszorg mij dan direct bellen.", "Laat de thuiszorg de huisarts dan direct bellen."),
        ] {
            assert_eq!(practice_named(said, "huisarts"), record, "{said}");
        }
        // elsewhere "ons" and "me" stay as said, and so does a quote
        for said in ["Wat hier besproken wordt blijft tussen ons.", "Lacht naar me.", "Vraagt: \"Mag ik u bellen?\" Bel me."] {
            assert_eq!(practice_named(said, "huisarts"), said.replace("Bel me.", "Bel de huisarts."), "{said}");
        }
        assert_eq!(practice_named("Bel me morgen.", "POH"), "Bel de POH morgen.");
    }

    #[test]
    fn what_the_clinician_does_with_a_thing_named_first_keeps_its_subject() {
        let plan = |t: &str| clinical(Section::Plan, Speaker::Zorgverlener, t);
        // (never "Dat hier niet goed beoordelen.": the clinician is named after, where known)
        assert_eq!(plan("Dat kan ik hier niet goed beoordelen."), "Dat kan ik hier niet goed beoordelen.");
        assert_eq!(in_own_name(&plan("Dat kan ik hier niet goed beoordelen."), "huisarts"), "Dat kan huisarts hier niet goed beoordelen.");
        // a time or an adverb before the verb still goes with the subject
        assert_eq!(plan("Over drie maanden wil ik uw bloeddruk meten."), "Over 3 maanden bloeddruk meten.");
        // and the profession's "we": "daar de volgende keer verder over praten"
        assert_eq!(plan("Daar praten we de volgende keer verder over."), "Daar de volgende keer verder over praten.");
    }

    #[test]
    fn a_value_said_before_a_question_is_kept_and_an_echo_loses_its_tag() {
        let found = |t: &str| clinical(Section::Objective, Speaker::Zorgverlener, t);
        assert_eq!(found("Ja, met dokter De Jong. Kalium 5,8, zegt u. En de nierfunctie? eGFR 41."), "Kalium 5,8. EGFR 41.");
        assert_eq!(found("Kalium 5,8, zegt u."), "Kalium 5,8.");
        assert_eq!(said_before_question("Kalium 5,8. En de nierfunctie? eGFR 41."), Some(("Kalium 5,8.", "En de nierfunctie? eGFR 41.")));
        assert_eq!(said_before_question("En de nierfunctie? eGFR 41."), None);
    }

    #[test]
    fn the_assessment_loses_the_clinician_s_thinking() {
        let assessed = |t: &str| clinical(Section::Evaluation, Speaker::Zorgverlener, t);
        assert_eq!(
            assessed("Wat ik denk: dit past het best bij een cyste op de rechter eierstok, bijvoorbeeld een cyste die is opengebarsten."),
            "Cyste op de rechter eierstok, bijvoorbeeld een cyste die is opengebarsten."
        );
        assert_eq!(
            assessed("Blindedarmontsteking vind ik minder waarschijnlijk, omdat u geen koorts heeft."),
            "Blindedarmontsteking minder waarschijnlijk, omdat patiënt geen koorts heeft."
        );
    }

    fn s(t: &str) -> String {
        clinical(Section::Subjective, Speaker::Patient, t)
    }

    #[test]
    fn the_patients_story_in_the_third_person() {
        assert_eq!(s("Ik heb sinds drie dagen keelpijn."), "Sinds 3 dagen keelpijn.");
        assert_eq!(s("Patiënt: Nou, ik heb sinds drie dagen keelpijn."), "Sinds 3 dagen keelpijn.");
        assert_eq!(s("Eigenlijk slaap ik slecht, ik lig te malen over het werk."), "Slaapt slecht, ligt te malen over het werk.");
        assert_eq!(s("Ik hoest al twee weken en het gaat maar niet over."), "Hoest al 2 weken en het gaat maar niet over.");
        // a filler that closed a clause leaves its comma; a hesitation takes its own with it
        assert_eq!(s("Pijn niet echt, wel jeuk."), "Pijn niet, wel jeuk.");
        assert_eq!(s("Ach, prima hoor, ik ben alleen wat vergeetachtig."), "Prima, is alleen wat vergeetachtig.");
        assert_eq!(s("Het duurt maar eh, een halve minuut."), "Het duurt maar een halve minuut.");
        assert_eq!(
            s("Mijn linkerknie is dik sinds ik vorige week ben gevallen."),
            "Linkerknie is dik sinds patiënt vorige week is gevallen."
        );
        // where another tells the history, the speaker's "ik" is not the patient's
        let told = clinical_told(Section::Subjective, Speaker::Patient, "De kraamverzorgster vond dat ik moest bellen.", true);
        assert!(!told.contains("patiënt"), "{told}");
        assert_eq!(s("Ik voel me moe."), "Moe.");
        // a strong past tense is the same for every person
        assert_eq!(s("Ik sloeg met mijn teen tegen de deurpost."), "Sloeg met teen tegen de deurpost.");
        assert_eq!(s("Slikken doet echt zeer, vooral 's ochtends."), "Slikken doet zeer, vooral 's ochtends.");
        // after a question word "ik" opens an indirect question: its verb is at the end
        assert_eq!(s("Het jeukt zo, en dat is ook waarom ik kom."), "Het jeukt zo, en dat is ook waarom patiënt komt.");
        assert_eq!(s("Ik weet niet hoe ik moet slapen."), "Weet niet hoe patiënt moet slapen.");
        // "me" after a preposition: the patient spoken of, or the subject itself
        assert_eq!(s("Ik heb het gevoel dat iedereen naar me kijkt."), "Het gevoel dat iedereen naar patiënt kijkt.");
        assert_eq!(s("Ik heb het een tijdje voor me uit geschoven."), "Het een tijdje voor zich uit geschoven.");
        assert_eq!(s("Ik heb de lijst met metingen bij me."), "De lijst met metingen bij zich.");
        // the patient's own opinion, and the household spoken of as "we"
        assert_eq!(s("Volgens mij heb ik koorts."), "Heeft koorts.");
        assert_eq!(s("Volgens mij is het erger geworden."), "Volgens patiënt is het erger geworden.");
        assert_eq!(s("We zijn vorige week bij onze dochter geweest."), "Ze zijn vorige week bij hun dochter geweest.");
        assert_eq!(s("Hij sliep bij ons in bed, ons zoontje Daan."), "Hij sliep bij hen in bed, hun zoontje Daan.");
        assert_eq!(s("De buurvrouw kan ons brengen."), "De buurvrouw kan hen brengen.");
    }

    /// The broken lines the note once wrote, each now a whole Dutch line.
    #[test]
    fn rewrites_leave_whole_lines() {
        let o = |t| clinical(Section::Objective, Speaker::Zorgverlener, t);
        // an "er" left first joins its particle
        assert_eq!(clinical(Section::Subjective, Speaker::Patient, "Ik heb er ijs op gedaan."), "IJs erop gedaan.");
        assert_eq!(
            clinical(Section::Plan, Speaker::Zorgverlener, "U kunt er een ringvormige drukpleister omheen plakken."),
            "Een ringvormige drukpleister eromheen plakken."
        );
        assert_eq!(
            clinical(Section::Plan, Speaker::Zorgverlener, "Ik schrijf er amlodipine bij, vijf milligram."),
            "Amlodipine erbij schrijven, 5 milligram."
        );
        // the clinician's "ik" and "je" of a finding go
        assert_eq!(o("Huid heel en ik zie geen wondjes of drukplekken."), "Huid heel en geen wondjes of drukplekken.");
        assert_eq!(o("Liggend meet ik 142/78, de pols is 62."), "Liggend 142/78, de pols is 62.");
        assert_eq!(o("Je bloeddruk 112/68 en weegt 58 kilo."), "Bloeddruk 112/68 en weegt 58 kilo.");
        assert_eq!(clinical(Section::Objective, Speaker::Patient, "U zit wat voorovergebogen."), "Zit wat voorovergebogen.");
        assert_eq!(
            clinical(Section::Evaluation, Speaker::Zorgverlener, "U overbelast bent door de zorg voor uw moeder."),
            "Overbelast door de zorg voor moeder."
        );
        // a finding keeps its verb, after a pronoun as after a noun
        assert_eq!(o("Hij is alert en speelt, de slijmvliezen zijn vochtig."), "Hij is alert en speelt, de slijmvliezen zijn vochtig.");
        assert_eq!(o("Het trommelvlies is rood."), "Het trommelvlies is rood.");
        let e = |t| clinical(Section::Evaluation, Speaker::Zorgverlener, t);
        let p = |t| clinical(Section::Plan, Speaker::Zorgverlener, t);
        // "Er 36 voorgeschreven", "Er ook een foto van … maken": the clinician keeps the clause
        // (and is named); "er … bij" joins
        assert_eq!(
            p("Ik heb er 36 voorgeschreven, precies genoeg voor vier weken."),
            "Ik heb er 36 voorgeschreven, precies genoeg voor 4 weken."
        );
        assert_eq!(p("We schrijven er amlodipine bij."), "Amlodipine erbij schrijven.");
        // "Er drukpijn paravertebraal", "Bij onderzoek er zwelling", "Er sprake van …"
        assert_eq!(o("Er is drukpijn paravertebraal."), "Drukpijn paravertebraal.");
        assert_eq!(o("Bij onderzoek is er zwelling van de enkel."), "Bij onderzoek zwelling van de enkel.");
        assert_eq!(e("Er is sprake van depressieve klachten."), "Depressieve klachten.");
        // "direct bellen de praktijk"
        assert_eq!(p("Als het erger wordt, belt u direct de praktijk."), "Als het erger wordt, direct de praktijk bellen.");
        assert_eq!(p("Belt u direct de praktijk als het erger wordt."), "Bel direct de praktijk als het erger wordt.");
        assert_eq!(p("Over twee weken komt u terug."), "Over 2 weken terugkomen.");
        // past tenses keep their form; a typed line without commas keeps its verb
        assert_eq!(s("Vanochtend kwam ik amper mijn bed uit."), "Vanochtend kwam amper bed uit.");
        assert_eq!(s("voetbal kijken vond ik altijd heerlijk"), "Voetbal kijken vond altijd heerlijk.");
        assert_eq!(s("niet goed ik ben al twee maanden somber"), "Niet goed is al 2 maanden somber.");
    }

    /// The clinician's "ik", "we", "u" and "je" leave the record, each line still whole.
    #[test]
    fn an_ik_left_names_the_clinician_with_the_verb_in_the_third_person() {
        assert_eq!(in_own_name("Daarnaast stel ik voor om te starten.", "huisarts"), "Daarnaast stelt huisarts voor om te starten.");
        // after "en" or "maar" the verb follows; in a subordinate clause it closes the clause
        assert_eq!(
            in_own_name("De vlek is asymmetrisch en ik zie twee kleuren.", "huisarts"),
            "De vlek is asymmetrisch en huisarts ziet twee kleuren."
        );
        assert_eq!(
            in_own_name("Te hoog, maar ik noem het nog geen hypertensie.", "huisarts"),
            "Te hoog, maar huisarts noemt het nog geen hypertensie."
        );
        assert_eq!(in_own_name("Sorry dat ik stoor, dokter.", "Assistente"), "Sorry dat Assistente stoort, dokter.");
        assert_eq!(in_own_name("Geen koorts.", "huisarts"), "Geen koorts.");
    }

    #[test]
    fn the_addressee_left_is_the_patient() {
        for (said, record) in [
            ("Daarnaast zet huisarts u over op Spiolto.", "Daarnaast zet huisarts patiënt over op Spiolto."),
            ("Geen gedachten dat u er niet meer wilt zijn.", "Geen gedachten dat patiënt er niet meer wil zijn."),
            ("Niet benauwd, kunt u plat liggen.", "Niet benauwd, kan patiënt plat liggen."),
            ("U bent nuchter.", "Patiënt is nuchter."),
            // a quote stays as it was said
            ("Vraagt: \"Kunt u dat opschrijven?\"", "Vraagt: \"Kunt u dat opschrijven?\""),
            ("Geen koorts.", "Geen koorts."),
        ] {
            assert_eq!(addressee_named(said), record, "{said}");
        }
    }

    #[test]
    fn a_typed_question_without_its_mark_opens_with_a_verb_and_its_subject() {
        assert_eq!(verb_then_subject("drinkt en eet ze goed, en heeft ze koorts gehad"), Some("ze"));
        assert_eq!(verb_then_subject("moet ik stoppen met de zinkzalf"), Some("ik"));
        // a condition with its consequence, and a statement, ask nothing
        assert_eq!(verb_then_subject("krijg je toch afscheiding dan kom je eerder terug"), None);
        assert_eq!(verb_then_subject("ze drinkt goed"), None);
    }

    #[test]
    fn what_the_patient_has_done_is_no_instruction() {
        assert_eq!(
            clinical(Section::Plan, Speaker::Zorgverlener, "Dat kan in het begin, maar u heeft het tot nu toe goed verdragen."),
            "Dat kan in het begin, maar patiënt heeft het tot nu toe goed verdragen."
        );
        assert_eq!(clinical(Section::Plan, Speaker::Zorgverlener, "U heeft het goed verdragen."), "Heeft het goed verdragen.");
        // an instruction stays one
        assert_eq!(clinical(Section::Plan, Speaker::Zorgverlener, "U blijft elke ochtend wegen."), "Blijf elke ochtend wegen.");
        // what comes to the patient neither
        assert_eq!(
            clinical(Section::Plan, Speaker::Zorgverlener, "U hoort van het ziekenhuis wanneer de afspraak is."),
            "Hoort van het ziekenhuis wanneer de afspraak is."
        );
    }

    #[test]
    fn a_typed_line_without_commas_starts_a_clause_at_ik() {
        // the verb is the one after "ik", not the adjective before it
        assert_eq!(
            clinical(Section::Subjective, Speaker::Patient, "nog steeds heel heftig ik bloed zeven dagen"),
            "Nog steeds heel heftig bloedt 7 dagen."
        );
        assert_eq!(clinical(Section::Subjective, Speaker::Patient, "niet goed ik ben al moe"), "Niet goed is al moe.");
        // a verb before "ik" is the inversion: "slaap ik" → "slaapt"
        assert_eq!(clinical(Section::Subjective, Speaker::Patient, "'s nachts slaap ik slecht"), "'s Nachts slaapt slecht.");
    }

    #[test]
    fn the_patient_s_u_is_the_clinician_where_nothing_else_can_be_meant() {
        assert_eq!(clinician_named("Vorige week is bij u geweest.", "huisarts"), "Vorige week is bij huisarts geweest.");
        assert_eq!(
            clinician_named("Slikt simvastatine, die u heeft voorgeschreven.", "huisarts"),
            "Slikt simvastatine, die huisarts heeft voorgeschreven."
        );
        // after a verb whose subject was left out, "u" stays rather than turn who asks round
        assert_eq!(clinician_named("Wilde u ook vragen of u kunt helpen.", "huisarts"), "Wilde u ook vragen of huisarts kan helpen.");
    }

    #[test]
    fn a_thought_becomes_a_main_clause() {
        for (spoken, record) in [
            ("Een kneuzing, ik denk dat de meniscus niet beschadigd is.", "Kneuzing, waarschijnlijk is de meniscus niet beschadigd."),
            ("Ik denk aan een longontsteking rechts onder.", "Waarschijnlijk een longontsteking rechts onder."),
            ("Ik denk dat de meniscus niet beschadigd is.", "Waarschijnlijk is de meniscus niet beschadigd."),
            // two clauses sharing the subject: each verb in its place
            (
                "Ik denk dat uw vader een urineweginfectie met koorts heeft en daardoor in de war is geraakt, dat noemen we een delier.",
                "Waarschijnlijk heeft vader een urineweginfectie met koorts en is daardoor in de war geraakt: delier.",
            ),
            // of the patient: the state
            ("Ik denk dat u overbelast bent door de zorg voor uw moeder.", "Waarschijnlijk overbelast door de zorg voor moeder."),
            // an infinitive before "en" ends no clause
            (
                "Verstopping, waarschijnlijk door te weinig drinken en weinig bewegen.",
                "Verstopping, waarschijnlijk door te weinig drinken en weinig bewegen.",
            ),
            ("Dat komt waarschijnlijk door te weinig drinken.", "Dat komt waarschijnlijk door te weinig drinken."),
            // what the patient has; a verb before a prepositional phrase; the modal of a cluster
            (
                "Ik denk dat u een niersteen heeft die vastzit in de urineleider.",
                "Waarschijnlijk een niersteen die vastzit in de urineleider.",
            ),
            (
                "Ik denk dat de dikke enkels een bijwerking zijn van de amlodipine.",
                "Waarschijnlijk zijn de dikke enkels een bijwerking van de amlodipine.",
            ),
            ("Ik denk dat het een virus kan zijn.", "Mogelijk virus."),
            (
                "Ik denk dat er meer aan de hand is dan vergeetachtigheid bij het ouder worden.",
                "Waarschijnlijk is er meer aan de hand dan vergeetachtigheid bij het ouder worden.",
            ),
            ("Volgens mij heeft u een carpaletunnelsyndroom.", "Waarschijnlijk een carpaletunnelsyndroom."),
            ("Hartfalen lijkt me minder waarschijnlijk.", "Hartfalen lijkt minder waarschijnlijk."),
            // a fronted "voor u" keeps the verb second
            ("Dat is te hoog, voor u ligt de streefwaarde onder de 53.", "Te hoog, voor patiënt ligt de streefwaarde onder de 53."),
            // no verb the register knows: the clause stays whole
            ("Ik denk dat er een miskraam dreigt.", "De indruk is dat er een miskraam dreigt."),
        ] {
            assert_eq!(clinical(Section::Evaluation, Speaker::Zorgverlener, spoken), record, "{spoken}");
        }
    }

    #[test]
    fn the_name_the_clinician_gives_is_the_assessment() {
        let e = |s: &str| clinical(Section::Evaluation, Speaker::Zorgverlener, s);
        assert_eq!(e("Uw schildklier werkt te traag, dat noemen we hypothyreoïdie."), "Schildklier werkt te traag: hypothyreoïdie.");
        assert_eq!(
            e("Dit noemen we etalagebenen: door slagaderverkalking krijgen uw kuitspieren te weinig bloed."),
            "Etalagebenen: door slagaderverkalking krijgen kuitspieren te weinig bloed."
        );
        // "dat" after a word inside the clause names nothing
        assert!(!e("Ik weet dat dat noemen we vaak zo.").contains(':'));
    }

    #[test]
    fn a_patients_question_is_told_not_asked() {
        let s = |q: &str| clinical(Section::Subjective, Speaker::Patient, q);
        assert_eq!(s("Moet er dan geen foto gemaakt worden?"), "Vraagt of er geen foto gemaakt moet worden.");
        assert_eq!(
            s("Kan hij dan niet beter meteen een gehoorapparaat krijgen?"),
            "Vraagt of hij niet beter meteen een gehoorapparaat kan krijgen."
        );
        assert_eq!(s("Is dat geen zware hormoonzalf voor zo'n kleintje?"), "Vraagt of dat geen zware hormoonzalf voor zo'n kleintje is.");
        // speaking as "ik", or more than one clause: the question quoted as asked
        assert_eq!(s("Eh, moet ik dat dan de rest van mijn leven slikken?"), "Vraagt: \"Moet ik dat dan de rest van mijn leven slikken?\"");
        assert_eq!(s("Is het erg, nu het al weken duurt?"), "Vraagt: \"Is het erg, nu het al weken duurt?\"");
        let style = super::super::testset::style_violations(&s("Moet ik dat dan de rest van mijn leven slikken?"));
        assert_eq!((style.first_person, style.questions), (0, 0));
    }

    #[test]
    fn the_clinician_s_perceiving_and_the_profession_s_we_leave_findings_and_assessments() {
        let o = |t| clinical(Section::Objective, Speaker::Zorgverlener, t);
        assert_eq!(o("In het linker bovenooglid voel ik een ronde harde zwelling."), "In het linker bovenooglid een ronde harde zwelling.");
        assert_eq!(o("Buik verder soepel en ik hoor normale darmgeluiden."), "Buik verder soepel en normale darmgeluiden.");
        assert_eq!(o("De bloeddruk die ik net heb gemeten is 115/75."), "De bloeddruk is 115/75.");
        // the subordinate clause's verb before what was put after it, within its own clause
        assert_eq!(
            in_own_name("Het blijft tussen ons, tenzij ik me zorgen maak over veiligheid, en dan vertel ik wat ik ga doen.", "POH"),
            "Het blijft tussen ons, tenzij POH zich zorgen maakt over veiligheid, en dan vertelt POH wat POH gaat doen."
        );
        assert_eq!(
            in_own_name("Ik maak me zorgen dat er een bacteriële ontsteking zit.", "huisarts"),
            "Huisarts maakt zich zorgen dat er een bacteriële ontsteking zit."
        );
        assert_eq!(in_own_name("Daar maak ik me wel zorgen over.", "huisarts"), "Daar maakt huisarts zich wel zorgen over.");
        // an object further on is not the speaker's reflexive
        assert_eq!(in_own_name("Als ik fluister, verstaat ze me goed.", "huisarts"), "Als huisarts fluistert, verstaat ze me goed.");
        // one who speaks of "de huisarts" is not the huisarts; "Ik" mid-line keeps its capital; a
        // typed clause that opens with "ik" after a value
        assert_eq!(in_own_name("Ik overleg met de huisarts.", "huisarts"), "Zorgverlener overlegt met de huisarts.");
        assert_eq!(
            in_own_name("Dat klinkt goed. Ik verwacht dat het went.", "huisarts"),
            "Dat klinkt goed. Huisarts verwacht dat het went."
        );
        assert_eq!(in_own_name("saturatie 95% ik hoor wat piepen", "huisarts"), "Saturatie 95% huisarts hoort wat piepen");
        // a line that ends with "ik" or its verb, typed without punctuation
        assert_eq!(in_own_name("ik ga", "huisarts"), "Huisarts gaat");
        for section in [Section::Subjective, Section::Objective, Section::Evaluation, Section::Plan] {
            for speaker in [Speaker::Zorgverlener, Speaker::Patient] {
                for line in ["dan kom ik morgen langs en ik", "ik heb er", "we", "ik maak me"] {
                    assert!(!in_own_name(&we_named(&clinical(section, speaker, line), "huisarts"), "huisarts").is_empty());
                }
            }
        }
        // a guessed clinician named only at the clinician's work
        assert_eq!(in_own_name_at_work("Ik tik op de pols rechts.", "huisarts"), "Huisarts tikt op de pols rechts.");
        assert_eq!(in_own_name_at_work("Ik rook een pakje per dag.", "huisarts"), "Ik rook een pakje per dag.");
        // the profession's "we" beside a verb the register knows, in a main clause
        assert_eq!(
            we_named("Dit was van voorbijgaande aard, maar we nemen het heel serieus.", "huisarts"),
            "Dit was van voorbijgaande aard, maar huisarts neemt het heel serieus."
        );
        assert_eq!(
            we_named("Injectie met corticosteroïden geven we bij de achillespees niet.", "huisarts"),
            "Injectie met corticosteroïden geeft huisarts bij de achillespees niet."
        );
        assert_eq!(we_named("Dan laten we ook bloed prikken.", "POH"), "Dan laat POH ook bloed prikken.");
        // not in a subordinate clause, not together with the patient, not a proposal
        for kept in ["Als we niets vinden, is het goed.", "De uitslag bespreken we daarna samen.", "Laten we goed kijken."] {
            assert_eq!(we_named(kept, "huisarts"), kept);
        }
        assert_eq!(in_own_name("Dan stel ik voor dat ik de vinger verdoof en het pus laat aflopen.", "huisarts").matches("ik").count(), 1);
        // the clinician's "jouw" goes, the age kept as the patient's; "jou" is the patient
        assert_eq!(o("Op jouw leeftijd is borstkanker heel zeldzaam."), "Op deze leeftijd is borstkanker heel zeldzaam.");
        assert_eq!(o("Op uw leeftijd komt dat veel voor."), "Op deze leeftijd komt dat veel voor.");
        assert_eq!(o("Vandaag met jouw toestemming thuis bellen."), "Vandaag met toestemming thuis bellen.");
        assert_eq!(o("Dit is nooit jouw schuld."), "Dit is nooit de schuld van patiënt.");
        assert_eq!(
            addressee_named("De piekstroom is 390, dat is 70% van wat voor jou normaal is."),
            "De piekstroom is 390, dat is 70% van wat voor patiënt normaal is."
        );
        assert_eq!(
            o("Vitamine D is 22, en onder de 30 spreken we van een tekort."),
            "Vitamine D is 22, en onder de 30 is er sprake van een tekort."
        );
        assert_eq!(o("Mond gaat twee vingers open, dat noemen we een kaakklem."), "Mond gaat 2 vingers open, dat heet een kaakklem.");
        let e = |t| clinical(Section::Evaluation, Speaker::Zorgverlener, t);
        assert_eq!(e("Die eerste grote plek noemen we de moederplek."), "Die eerste grote plek heet de moederplek.");
        assert_eq!(e("Vanaf acht spreken we van een gokprobleem."), "Vanaf 8 is er sprake van een gokprobleem.");
        assert_eq!(e("Dat weten we nog niet, het kan ook allergie zijn."), "Dat is nog niet bekend, het kan ook allergie zijn.");
        assert_eq!(
            e("Daar denk ik ook aan: koorts na een reis is malaria tot het tegendeel bewezen is."),
            "Koorts na een reis is malaria tot het tegendeel bewezen is."
        );
        assert_eq!(
            clinical(Section::Plan, Speaker::Zorgverlener, "Ik heb net overlegd met de internist, ze kan vanmiddag terecht."),
            "Net overlegd met de internist, ze kan vanmiddag terecht."
        );
        assert_eq!(
            clinical(Section::Plan, Speaker::Zorgverlener, "Drie maanden geleden hebben we de dosis verhoogd."),
            "3 maanden geleden de dosis verhoogd."
        );
        assert_eq!(e("Die zien we vaker bij mensen met diabetes."), "Die komt vaker voor bij mensen met diabetes.");
        assert_eq!(
            e("Aan een zonnesteek denk ik niet, want hij heeft geen hoofdpijn."),
            "Zonnesteek onwaarschijnlijk, want hij heeft geen hoofdpijn."
        );
        assert_eq!(e("Aan zwangerschapsvergiftiging denk ik hierbij niet."), "Zwangerschapsvergiftiging hierbij onwaarschijnlijk.");
        assert_eq!(
            e("Wat ik hoor, is dat je veel spanning voelt rond de tentamens."),
            "Indruk dat patiënt veel spanning voelt rond de tentamens."
        );
        assert_eq!(
            e("Wat ik zie is iemand die veel stress heeft door een nieuwe baan."),
            "Indruk: iemand die veel stress heeft door een nieuwe baan."
        );
        assert_eq!(
            clinical(Section::Objective, Speaker::Zorgverlener, "En hoe gaat het met uzelf? U ziet er moe uit."),
            "Ziet er moe uit."
        );
        assert_eq!(
            clinical(Section::Plan, Speaker::Zorgverlener, "Wilt u proberen een plasje op te vangen? Dan neem ik een urinestick mee."),
            "Proberen een plasje op te vangen. Dan een urinestick meenemen."
        );
        // a request alone is the instruction too; a wish without its verb is no request
        assert_eq!(
            clinical(
                Section::Plan,
                Speaker::Zorgverlener,
                "Wilt u over vier weken bij de assistente uw bloeddruk laten meten en bloed laten prikken voor het kalium?"
            ),
            "Over 4 weken bij de assistente bloeddruk laten meten en bloed laten prikken voor het kalium."
        );
        assert!(requested("Wil je een paar weken een dagboekje bijhouden?").is_some());
        assert!(requested("Wilt u een verwijzing naar de fysiotherapeut?").is_none());
        assert!(requested("Kunt u nog een hele zin uitspreken zonder adem te halen?").is_none());
        assert!(requested("Wilt u dit bakje onder uw oor houden?").is_none());
        assert_eq!(
            clinical(Section::Plan, Speaker::Zorgverlener, "En ik raad aan om te stoppen met roken."),
            "En geadviseerd om te stoppen met roken."
        );
        assert_eq!(e("Vooral een verhoogde gamma-GT zien we daar vaak bij."), "Vooral een verhoogde gamma-GT komt daar vaak bij voor.");
        assert_eq!(
            clinical(Section::Plan, Speaker::Zorgverlener, "Ik stuur de urine op, want een tumor willen we niet missen."),
            "De urine opsturen, want een tumor mag niet gemist worden."
        );
        assert_eq!(o("Het tandvlees is dik en pijnlijk, ik zie een bolling."), "Het tandvlees is dik en pijnlijk, een bolling.");
        assert_eq!(e("Aan hart en longen vind ik geen afwijkingen."), "Aan hart en longen geen afwijkingen.");
        // "laten" with an infinitive is the clinician's plan, made nominal
        let p = |t| clinical(Section::Plan, Speaker::Zorgverlener, t);
        assert_eq!(
            p("Voor de zekerheid laat ik bloed prikken voor de schildklier."),
            "Voor de zekerheid bloed prikken voor de schildklier."
        );
        assert_eq!(p("U mag er maximaal twee per vierentwintig uur gebruiken."), "Maximaal 2 per 24 uur gebruiken.");
    }

    #[test]
    fn a_verb_that_looks_like_a_filler_and_a_subject_after_a_question_word_stay_whole() {
        let s = |t: &str| clinical(Section::Subjective, Speaker::Patient, t);
        // "hoor" ending a clause of "ik" is the verb; set off after a statement it is a filler
        assert_eq!(
            s("Omdat hij zelf niet hoort wat ik 's nachts allemaal hoor."),
            "Omdat hij zelf niet hoort wat patiënt 's nachts allemaal hoort."
        );
        assert_eq!(s("Dat weet ik niet hoor."), "Dat weet patiënt niet.");
        let e = |t: &str| clinical(Section::Evaluation, Speaker::Zorgverlener, t);
        assert_eq!(
            e("Wat uw vrouw beschrijft en hoe moe u overdag bent, past goed bij slaapapneu."),
            "Wat vrouw beschrijft en hoe moe overdag is, past goed bij slaapapneu."
        );
    }

    #[test]
    fn a_fit_an_inverted_copula_and_a_follow_up_stay_whole() {
        let p = |t| clinical(Section::Plan, Speaker::Zorgverlener, t);
        let o = |t| clinical(Section::Objective, Speaker::Zorgverlener, t);
        let e = |t| clinical(Section::Evaluation, Speaker::Zorgverlener, t);
        assert_eq!(e("Dit patroon past het best bij een leverbelasting door alcohol."), "Leverbelasting door alcohol.");
        assert_eq!(e("Een beroerte past hier niet bij."), "Beroerte past hier niet bij.");
        assert_eq!(e("En de hoest past goed bij een bijwerking."), "En de hoest past goed bij een bijwerking.");
        // the subject after the copula keeps its verb: never "Volgens mij dit …", "Links het …"
        assert_eq!(o("Links is het trommelvlies normaal."), "Links is het trommelvlies normaal.");
        assert_eq!(o("De keel is rood."), "De keel is rood.");
        assert_eq!(p("Ik zie u over twee weken terug om te horen hoe het gaat."), "Controle over 2 weken om te horen hoe het gaat.");
        assert_eq!(
            p("Mijn voorstel is dat u vier weken stopt met de simvastatine."),
            "Voorstel dat patiënt 4 weken stopt met de simvastatine."
        );
        assert_eq!(
            p("Ik stel voor dat we eerst twee weken met pijnstillers afwachten."),
            "Voorstel: eerst 2 weken met pijnstillers afwachten."
        );
        assert_eq!(p("Het belangrijkste is dat ze genoeg drinkt."), "Advies: zorgen dat ze genoeg drinkt.");
        assert_eq!(p("Mijn advies is afwachten."), "Advies: afwachten.");
        assert_eq!(p("Dat begrijp ik, daarom bel ik u morgen."), "Daarom telefonisch contact morgen.");
    }

    #[test]
    fn the_clinicians_voice_becomes_the_records() {
        let p = |t| clinical(Section::Plan, Speaker::Zorgverlener, t);
        let o = |t| clinical(Section::Objective, Speaker::Zorgverlener, t);
        let e = |t| clinical(Section::Evaluation, Speaker::Zorgverlener, t);
        for (spoken, record) in [
            (
                "We verhogen de furosemide een week lang naar 80 milligram, dus 2 tabletten in de ochtend.",
                "De furosemide een week lang naar 80 milligram verhogen, dus 2 tabletten in de ochtend.",
            ),
            (
                "U blijft elke ochtend wegen en u drinkt niet meer dan anderhalve liter per dag.",
                "Blijf elke ochtend wegen en drink niet meer dan anderhalve liter per dag.",
            ),
            (
                "Over een week prikken we bloed voor de nierfunctie en komt de praktijkverpleegkundige bij u thuis kijken.",
                "Over een week bloed voor de nierfunctie prikken en komt de praktijkverpleegkundige thuis kijken.",
            ),
            (
                "Bel als u binnen drie dagen meer dan twee kilo aankomt of als u benauwder wordt.",
                "Bel als patiënt binnen 3 dagen meer dan 2 kilo aankomt of als patiënt benauwder wordt.",
            ),
            (
                "Ik verhoog de metformine naar twee keer per dag 1000 milligram.",
                "De metformine naar 2 keer per dag 1000 milligram verhogen.",
            ),
            ("Over drie maanden ziet u de praktijkondersteuner weer.", "Over 3 maanden de praktijkondersteuner weer zien."),
            // a plural the register does not know is the infinitive; "laten" with one is a modal
            ("We voegen eerst een tweede tablet toe aan de metformine.", "Eerst een tweede tablet toevoegen aan de metformine."),
            (
                "Over zes weken prikken we het TSH opnieuw en passen we de dosis zo nodig aan.",
                "Over 6 weken het TSH opnieuw prikken en de dosis zo nodig aanpassen.",
            ),
            ("Volgende week laten we bloed prikken voor de nierfunctie.", "Volgende week bloed prikken voor de nierfunctie."),
            ("Goedemorgen, we hadden een telefonische afspraak.", "We hadden een telefonische afspraak."),
            // a separable verb's particle before a prepositional phrase
            ("Ik vraag een afspraak aan op de snelle polikliniek.", "Een afspraak aanvragen op de snelle polikliniek."),
            (
                "Die kun je ook gebruiken als je benauwd bent, dan heb je de salbutamol niet meer nodig.",
                "Die ook gebruiken als patiënt benauwd is, dan de salbutamol niet meer nodig hebben.",
            ),
            (
                "Ze hoeft nu niet naar het ziekenhuis, maar we houden het goed in de gaten.",
                "Ze hoeft nu niet naar het ziekenhuis, maar het goed in de gaten houden.",
            ),
            ("Over drie maanden wil ik je bloeddruk nog een keer meten.", "Over 3 maanden bloeddruk nog een keer meten."),
            (
                "In plaats daarvan neemt u paracetamol, drie keer per dag duizend milligram.",
                "In plaats daarvan paracetamol nemen, 3 keer per dag 1000 milligram.",
            ),
            ("U moet elke dag een half uur wandelen.", "Elke dag een half uur wandelen."),
            ("De praktijkondersteuner kan u daarbij begeleiden.", "De praktijkondersteuner kan daarbij begeleiden."),
            ("Over drie maanden weeg ik u opnieuw.", "Over 3 maanden opnieuw wegen."),
            // the verb goes after the list its clause opens, not into it
            ("We prikken ook bloed voor cholesterol, suiker en nierfunctie.", "Ook bloed voor cholesterol, suiker en nierfunctie prikken."),
            (
                "We prikken bloed voor de nierfunctie, het kalium en het cholesterol, en over een week bel ik u.",
                "Bloed voor de nierfunctie, het kalium en het cholesterol prikken, en over een week telefonisch contact.",
            ),
            // a separable verb's infinitive stands where its particle stood
            (
                "Over vier weken kom je terug bij de praktijkondersteuner om te kijken hoe het gaat.",
                "Over 4 weken terugkomen bij de praktijkondersteuner om te kijken hoe het gaat.",
            ),
            ("We sturen de urine op.", "De urine opsturen."),
            ("We zouden vandaag kijken wat de tabletten doen.", "Vandaag kijken wat de tabletten doen."),
            (
                "Over twee weken bel ik u, en als het goed gaat schuiven we de bedtijd een kwartier op.",
                "Over 2 weken telefonisch contact, en als het goed gaat de bedtijd een kwartier opschuiven.",
            ),
            // where the clinician will be stays as said, for the clinician to be named ("Huisarts
            // is er rond half 4"), not an infinitive line ("Er rond half 4 zijn")
            ("Excuses, ik moet even weg, ik ben zo terug.", "Excuses, weg moeten, ik ben zo terug."),
            ("Ik ben er rond half vier.", "Ik ben er rond half 4."),
            ("U doet het heel rustig aan.", "Doe het heel rustig aan."),
            // after a condition put first, the main clause's verb and "u" are the plan's infinitive
            ("Als het na vier weken nog niet over is, komt u terug.", "Als het na 4 weken nog niet over is, terugkomen."),
            ("Als het gevoel wegblijft, moet u niet afwachten.", "Als het gevoel wegblijft, niet afwachten."),
            // a list of conditions stays a list of conditions
            (
                "Wordt u benauwd, krijgt u koorts of hoest u bloed op, bel dan meteen.",
                "Wordt benauwd, krijgt koorts of hoest bloed op, bel dan meteen.",
            ),
            // a clause after the comma is no list
            (
                "Ik voel wat benige verdikking aan de binnenkant van de knie, en bij bewegen kraakt hij.",
                "Wat benige verdikking aan de binnenkant van de knie voelen, en bij bewegen kraakt hij.",
            ),
        ] {
            assert_eq!(p(spoken), record, "{spoken}");
        }
        assert_eq!(o("U weegt 97 kilo."), "Weegt 97 kilo.");
        assert_eq!(o("We zien een rode keel met beslag op de amandelen."), "Rode keel met beslag op de amandelen.");
        assert_eq!(e("We denken aan een blaasontsteking."), "Waarschijnlijk een blaasontsteking.");
        assert_eq!(e("Zeker weten doen we het nog niet."), "Zeker is het nog niet.");
        assert_eq!(e("We weten niet precies waar het door komt."), "Het is niet precies bekend waar het door komt.");
        assert_eq!(e("Dat weten we nog niet, maar dit wil ik niet afwachten."), "Dat is nog niet bekend, maar dit niet afwachten.");
        assert_eq!(
            e("Het kan ook door de infectie zelf komen, maar we gaan uit van een overgevoeligheid."),
            "Het kan ook door de infectie zelf komen, maar waarschijnlijk een overgevoeligheid."
        );
        assert_eq!(
            e("De bloeddruk is nog te hoog, we willen onder de 140 uitkomen."),
            "De bloeddruk is nog te hoog, onder de 140 uitkomen."
        );
        assert_eq!(e("Eczeem, dat zien we vaak bij kleine kinderen."), "Eczeem, vaak bij kleine kinderen.");
        // another verb of the clinician's stays whole
        assert_eq!(e("We noemen dat een burn-out."), "We noemen dat een burn-out.");
        assert_eq!(
            p("De eerste week bent u overdag wat slaperiger, wees daarom voorzichtig met autorijden."),
            "De eerste week is overdag wat slaperiger, wees daarom voorzichtig met autorijden."
        );
        assert_eq!(
            e("Ik hoor geen alarmsignalen, dus u hoeft nu niet langs te komen."),
            "Geen alarmsignalen, dus hoeft nu niet langs te komen."
        );
        assert_eq!(
            e("Het risico is laag, omdat u geen plannen heeft en uw kinderen u steun geven."),
            "Het risico is laag, omdat patiënt geen plannen heeft en kinderen steun geven."
        );
        // a clause the rules cannot make whole keeps its words
        assert_eq!(o("Dan meet ik bloeddruk en weeg ik u."), "Dan meet ik bloeddruk en weeg ik u.");
    }

    #[test]
    fn a_question_in_the_middle_of_a_line_and_a_wish_stay_whole_lines() {
        let p = |t| clinical(Section::Plan, Speaker::Zorgverlener, t);
        let o = |t| clinical(Section::Objective, Speaker::Zorgverlener, t);
        let e = |t| clinical(Section::Evaluation, Speaker::Zorgverlener, t);
        // the question told as one, what follows it as the history: no question mark left outside
        // a quote
        assert_eq!(
            s("Is dat iets ernstigs? Ik ben bang dat ik straks helemaal doof word."),
            "Vraagt of dat iets ernstigs is. Bang dat patiënt straks helemaal doof wordt."
        );
        assert_eq!(
            s("Moet ik naar het ziekenhuis? Mijn vrouw is nog met de auto weg."),
            "Vraagt: \"Moet ik naar het ziekenhuis?\" Vrouw is nog met de auto weg."
        );
        // the verb closes its own clause, before an "om te" clause
        assert_eq!(
            p("Dan maken we over drie maanden een afspraak om het dagboek samen door te nemen."),
            "Dan over 3 maanden een afspraak maken om het dagboek samen door te nemen."
        );
        assert_eq!(
            p("Ik bel de spoedeisende hulp nu om te zeggen dat jullie eraan komen."),
            "De spoedeisende hulp nu bellen om te zeggen dat jullie eraan komen."
        );
        // the clinician's wish is the advice
        assert_eq!(
            p("Ik wil dat u hem nu meteen naar de spoedeisende hulp brengt."),
            "Advies: hem nu meteen naar de spoedeisende hulp brengen."
        );
        assert_eq!(p("Ik wil graag dat je vandaag bloed laat prikken."), "Advies: vandaag bloed laten prikken.");
        assert_eq!(
            p("Verder wil ik dat u samen met Daan een hoofdpijndagboek bijhoudt."),
            "Advies: samen met Daan een hoofdpijndagboek bijhouden."
        );
        assert_eq!(p("Ik wil dat u de folder meeneemt."), "Advies: de folder meenemen.");
        assert_eq!(p("Ik wil daarom dat de oogarts vandaag nog naar uw oog kijkt."), "Advies: dat de oogarts vandaag nog naar oog kijkt.");
        assert_eq!(
            p("Drink minstens anderhalve liter per dag, ook al heeft u er geen zin in."),
            "Drink minstens anderhalve liter per dag, ook al heeft patiënt er geen zin in."
        );
        assert_eq!(
            p("Morgen belt u de assistente om de eerste afspraak te maken."),
            "Morgen de assistente bellen om de eerste afspraak te maken."
        );
        assert_eq!(p("Verder hoeft u niets te veranderen."), "Verder niets hoeven te veranderen.");
        // a clause right after the verb keeps it in place; "dat" as its object does not
        assert_eq!(p("Over een week kijken we of de dosis omlaag kan."), "Over een week kijken of de dosis omlaag kan.");
        assert_eq!(p("Na een week doen we dat nog een keer."), "Na een week dat nog een keer doen.");
        assert_eq!(
            p("Als het over twee weken niet beter is, komt u terug en kunnen we aan de fysiotherapeut denken."),
            "Als het over 2 weken niet beter is, terugkomen en aan de fysiotherapeut denken."
        );
        assert_eq!(p("De assistente belt u om de eerste afspraak te maken."), "De assistente belt patiënt om de eerste afspraak te maken.");
        assert_eq!(p("'s Nachts en in het weekend belt u de huisartsenpost."), "'s Nachts en in het weekend de huisartsenpost bellen.");
        assert_eq!(
            p("Ik wil dat uw vrouw vandaag of morgen bloed laat prikken."),
            "Advies: dat vrouw vandaag of morgen bloed laat prikken."
        );
        // what is said about the patient names them; a condition keeps the telegram
        assert_eq!(
            p("Zeg bij de apotheek dat u overgevoelig bent voor amoxicilline, zodat u het niet opnieuw krijgt."),
            "Zeg bij de apotheek dat patiënt overgevoelig is voor amoxicilline, zodat patiënt het niet opnieuw krijgt."
        );
        assert_eq!(p("Als u benauwder wordt, belt u direct."), "Als patiënt benauwder wordt, direct bellen.");
        // one of two objects
        assert_eq!(p("Dan behandelen we u en uw gezin met een neuszalf."), "Dan patiënt en gezin met een neuszalf behandelen.");
        // how ill, in the assessment
        assert_eq!(
            e("U bent wel ziek, maar niet zo dat u naar het ziekenhuis moet."),
            "Wel ziek, maar niet zo dat patiënt naar het ziekenhuis moet."
        );
        assert_eq!(e("Dan moeten we zaadbalkanker uitsluiten."), "Dan zaadbalkanker uitsluiten.");
        // the clinician perceiving what is not there
        assert_eq!(e("Ik zie op dit moment geen aanwijzingen voor een depressie."), "Op dit moment geen aanwijzingen voor een depressie.");
        assert_eq!(
            o("Buik soepel, ik voel nergens een zwelling en als ik druk doet het nergens pijn."),
            "Buik soepel, nergens een zwelling en bij druk doet het nergens pijn."
        );
        // one of two subjects; a word that is no verb after "en" stays
        assert_eq!(s("Mijn vrouw en ik hebben twee kinderen."), "Vrouw en patiënt hebben 2 kinderen.");
        assert_eq!(s("Ik gebruik de pil en verder geen medicijnen."), "Gebruikt de pil en verder geen medicijnen.");
        assert_eq!(s("nee geen koorts ik voel me verder prima"), "Nee geen koorts voelt zich verder prima.");
        assert_eq!(s("Als ik diep inadem is het veel erger."), "Als patiënt diep inademt is het veel erger.");
        assert_eq!(s("Hoeft er geen foto gemaakt te worden?"), "Vraagt of er geen foto gemaakt hoeft te worden.");
        assert_eq!(s("Hoor je dat, Thijs? Dat komt wel goed."), "Vraagt: \"Hoor je dat, Thijs?\" Dat komt wel goed.");
        assert_eq!(
            s("soms een beetje down als ik zie hoeveel ik achterloop"),
            "Soms een beetje down als patiënt ziet hoeveel patiënt achterloopt."
        );
    }

    #[test]
    fn hedges_comparisons_ranges_and_advice_leave_whole_lines() {
        let s = |t| clinical(Section::Subjective, Speaker::Patient, t);
        let e = |t| clinical(Section::Evaluation, Speaker::Zorgverlener, t);
        let p = |t| clinical(Section::Plan, Speaker::Zorgverlener, t);
        // the hedge after what was told goes, never "… gelooft"; before a clause it stays
        assert_eq!(
            s("Mijn zus heeft als baby een spreidbroek gehad, voor heupdysplasie geloof ik."),
            "Zus heeft als baby een spreidbroek gehad, voor heupdysplasie."
        );
        assert_eq!(s("Nou, u ziet het al, denk ik."), "");
        assert_eq!(s("Toen ik haar verhaal hoorde, dacht ik: dat ben ik."), "Toen patiënt haar verhaal hoorde, dacht: dat is patiënt.");
        // the speaker compared keeps a subject: never "… dan;"
        assert_eq!(
            s("Mijn vrouw maakt zich daar meer zorgen over dan ik; ik vind vooral drie ziektes in één prik veel."),
            "Vrouw maakt zich daar meer zorgen over dan patiënt; vindt vooral 3 ziektes in één prik veel."
        );
        // "denk ik aan" after a clause of its own, and the clinician's "ik heb geen aanwijzingen"
        assert_eq!(
            e("Omdat het zo snel is ontstaan, denk ik aan de natte vorm."),
            "Omdat het zo snel is ontstaan, waarschijnlijk de natte vorm."
        );
        assert_eq!(e("Ik heb geen aanwijzingen voor iets ernstigs."), "Geen aanwijzingen voor iets ernstigs.");
        // a range keeps its "tot", and the next clause's verb and subject end the first clause
        assert_eq!(
            p("tot die tijd drinkt u anderhalf tot twee liter water per dag en in plaats van schrapen slikt u even"),
            "Tot die tijd anderhalf tot 2 liter water per dag drinken en in plaats van schrapen slikt even."
        );
        assert_eq!(
            p("Dat hoeft niet, maar ik raad u aan met de bedrijfsarts te praten."),
            "Dat hoeft niet, maar geadviseerd met de bedrijfsarts te praten."
        );
        assert_eq!(p("Het helpt mij als u een keer een filmpje maakt."), "Het helpt als patiënt een keer een filmpje maakt.");
        // what the clinician perceives after a fronted phrase keeps a verb: never "Bij het lopen
        // dat hij …"
        let o = |t| clinical(Section::Objective, Speaker::Zorgverlener, t);
        assert_eq!(
            o("Bij het lopen zie ik dat hij afwisselend op de tenen en op de hele voet loopt."),
            "Bij het lopen is te zien dat hij afwisselend op de tenen en op de hele voet loopt."
        );
        assert_eq!(o("Op mijn vraag kan hij op de hakken staan."), "Op verzoek kan hij op de hakken staan.");
    }

    #[test]
    fn each_field_loses_its_spoken_opening() {
        let o = |t| clinical(Section::Objective, Speaker::Zorgverlener, t);
        let e = |t| clinical(Section::Evaluation, Speaker::Zorgverlener, t);
        let p = |t| clinical(Section::Plan, Speaker::Zorgverlener, t);
        assert_eq!(o("Uw bloeddruk is 152 over 94."), "Bloeddruk is 152/94.");
        assert_eq!(o("De keel is rood, geen beslag."), "De keel is rood, geen beslag.");
        assert_eq!(o("De saturatie is 98 procent."), "De saturatie is 98%.");
        assert_eq!(e("de keelpijn is een virale keelontsteking"), "Virale keelontsteking.");
        assert_eq!(e("Dat is aspecifieke lage rugpijn."), "Aspecifieke lage rugpijn.");
        assert_eq!(e("Dit past bij een virale luchtweginfectie."), "Virale luchtweginfectie.");
        assert_eq!(e("De hoest past bij een prikkelhoest."), "Prikkelhoest.");
        // a longer subject beside a clause that goes on stays: "Haar dementie, maar …" is no line
        assert_eq!(
            e("De onrust 's nachts past bij haar dementie, maar pijn aan die hiel kan het erger maken."),
            "De onrust 's nachts past bij haar dementie, maar pijn aan die hiel kan het erger maken."
        );
        assert_eq!(e("Ik denk dat dit spanningshoofdpijn is door de drukte."), "Spanningshoofdpijn door de drukte.");
        assert_eq!(
            e("De keelpijn is een virale keelontsteking, daar is geen antibioticum voor nodig."),
            "Virale keelontsteking, geen antibioticum nodig."
        );
        assert_eq!(p("Ik schrijf u naproxen voor, twee keer per dag 500 mg."), "Naproxen, 2 keer per dag 500 mg.");
        assert_eq!(p("U kunt paracetamol nemen."), "Paracetamol nemen.");
        assert_eq!(p("Ik verwijs u naar de diëtist."), "Verwijzing naar de diëtist.");
        assert_eq!(
            p("Voor de rug schrijf ik naproxen voor en ik verwijs u naar de fysiotherapeut."),
            "Voor de rug naproxen en verwijzing naar de fysiotherapeut."
        );
        assert_eq!(p("Als het over een week niet beter is, komt u terug."), "Als het over een week niet beter is, terugkomen.");
        assert_eq!(p("Rust een week."), "Rust een week.");
    }
}
