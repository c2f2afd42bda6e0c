//! The cue matcher of the rules engine (the lists themselves are in [`lexicon`](super::lexicon)).
//!
//! A cue is a lowercase word or phrase matched ASCII-case-insensitively at a word start and, by
//! default, ending at a word end. Two markers widen a cue: a trailing `*` makes it a prefix
//! (`hoest*` matches "hoest", "hoesten", "hoestbui"), a leading `*` lets it start inside a word
//! (`*ontsteking` matches "blaasontsteking"). Matching allocates nothing; a [`CueList`] indexes
//! its cues once, on first use, by their first two letters, so a sentence is tried only against
//! the cues its words can start.

use std::sync::OnceLock;

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
        Some(Cue { needle, check_start: !infix && is_word_byte(first), check_end: !prefix && is_word_byte(last) })
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
        (0..=hay.len() - self.needle.len()).find(|&i| hay[i].eq_ignore_ascii_case(&first) && self.matches_at(hay, i))
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
        let mut w = Words { hay, starts: [0; 64], len: 0, overflow: hay.len() > usize::from(u16::MAX), initials: 0 };
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

/// A list of cues the engine counts or searches, with its index, built the first time the list is
/// used.
pub(crate) struct CueList {
    cues: &'static [&'static str],
    index: OnceLock<Index>,
}

impl CueList {
    pub(crate) const fn new(cues: &'static [&'static str]) -> Self {
        CueList { cues, index: OnceLock::new() }
    }

    /// How many of the cues occur in `text`.
    pub(crate) fn count(&self, text: &str) -> u32 {
        let words = Words::new(text);
        if words.overflow {
            return self.count_one_by_one(&words);
        }
        self.index.get_or_init(|| Index::new(self.cues)).count(self.cues, &words)
    }

    /// True when any of the cues occurs in `text`.
    pub(crate) fn any(&self, text: &str) -> bool {
        self.count(text) > 0
    }

    /// True when `text`, after leading spaces and punctuation, starts with any of the cues.
    pub(crate) fn starts_any(&self, text: &str) -> bool {
        self.cues.iter().any(|c| starts_with_cue(text, c))
    }

    /// Where the first of the cues that occur in `text` starts (the index rules out a text that
    /// holds none before any cue is searched for).
    pub(crate) fn find(&self, text: &str) -> Option<usize> {
        if !self.any(text) {
            return None;
        }
        self.cues.iter().filter_map(|c| find_cue(text, c)).min()
    }

    fn count_one_by_one(&self, words: &Words) -> u32 {
        self.cues.iter().filter(|c| words.has(c)).count() as u32
    }
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
    buckets: Vec<Vec<u16>>,
    scan: Vec<u16>,
}

impl Index {
    fn new(list: &[&str]) -> Self {
        let mut index = Index { buckets: vec![Vec::new(); 26 * 27], scan: Vec::new() };
        for (i, c) in list.iter().enumerate() {
            let Ok(id) = u16::try_from(i) else { break };
            match Cue::parse(c) {
                Some(cue) if cue.check_start => match bucket(cue.needle[0], cue.needle.get(1).copied()) {
                    Some(b) => index.buckets[b].push(id),
                    None => index.scan.push(id),
                },
                Some(_) => index.scan.push(id),
                None => {}
            }
        }
        index
    }

    fn count(&self, list: &[&str], words: &Words) -> u32 {
        // one bit per cue: on the stack for a list of up to 1024 cues, else as long as the list
        // (the ICPC list's diagnoses are thousands)
        let mut small = [0u64; 16];
        let mut large = Vec::new();
        let seen: &mut [u64] = if list.len() <= 64 * small.len() {
            &mut small
        } else {
            large.resize(list.len().div_ceil(64), 0);
            &mut large
        };
        let mut n = 0;
        let mut mark = |id: u16| {
            let (w, b) = (usize::from(id) / 64, id % 64);
            if seen[w] & (1 << b) == 0 {
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

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b >= 0x80
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_of_thousands_counts_its_last_cue() {
        let cues: Vec<&'static str> = (0..3000).map(|i| &*format!("ziekte{i}").leak()).collect();
        let list = CueList::new(cues.leak());
        assert_eq!(list.count("Dit is ziekte2999 en ziekte5."), 2);
        assert!(list.any("ziekte1500"));
    }

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

    /// The indexed count agrees with matching every cue one by one, for every list.
    #[test]
    fn the_index_counts_like_the_plain_matcher() {
        let sentences = [
            "Ik schrijf u amoxicilline voor, drie keer per dag 500 mg, en over twee weken controle.",
            "Bij auscultatie hoor ik geen crepitaties; de buik is soepel, geen drukpijn.",
            "Dit past bij een virale infectie, waarschijnlijk een blaasontsteking i.v.m. de klachten.",
            "Eh, dokter, ik heb sinds gisteren 's avonds last van mijn rug en ik slaap slecht.",
            "u uw U, UW: 'S avonds, ige IgE, x10 µmol.",
        ];
        let lists = crate::summarise::rules::lexicon::every_list();
        assert!(lists.len() > 30);
        for list in lists {
            for s in sentences {
                assert_eq!(list.count(s), list.count_one_by_one(&Words::new(s)), "{s}");
            }
        }
    }
}
