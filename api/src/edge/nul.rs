//! NUL characters: PostgreSQL's `text` and `jsonb` refuse them, so the edge refuses any request
//! that carries one before a handler sees it.

/// True when `text` holds a NUL character (for decoded strings, e.g. a websocket message's
/// fields after parsing).
pub fn contains_nul(text: &str) -> bool {
    text.contains('\0')
}

/// True when raw JSON text holds a NUL: the byte 0x00 or the escape `\u0000` in a string (an
/// escaped backslash followed by `u0000`, `\\u0000`, is text and fine).
pub fn json_contains_nul(bytes: &[u8]) -> bool {
    let mut scan = Scanner::new(Grammar::Json);
    scan.feed(bytes)
}

/// What a body's bytes mean, for finding a NUL in them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grammar {
    /// JSON: the byte 0x00 and the escape `\u0000`.
    Json,
    /// A URL-encoded form: the byte 0x00 and `%00`.
    Form,
    /// Any other text: the byte 0x00.
    Text,
}

/// A streaming scanner: feed it a body's chunks in order; it remembers an escape that a chunk
/// boundary cut in two.
#[derive(Debug, Clone)]
pub struct Scanner {
    grammar: Grammar,
    state: State,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Plain,
    /// After an odd run of backslashes (JSON): the next byte is escaped.
    Escape,
    /// After `\u` and this many zeros (JSON).
    Unicode(u8),
    /// After `%` and this many zeros (form).
    Percent(u8),
}

impl Scanner {
    pub fn new(grammar: Grammar) -> Self {
        Self { grammar, state: State::Plain }
    }

    /// Scans the next chunk; true when a NUL was found (in it, or completed by it).
    pub fn feed(&mut self, chunk: &[u8]) -> bool {
        for &byte in chunk {
            if byte == 0 {
                return true;
            }
            self.state = match (self.grammar, self.state, byte) {
                (Grammar::Text, ..) => State::Plain,
                (Grammar::Json, State::Escape, b'u') => State::Unicode(0),
                (Grammar::Json, State::Escape, _) => State::Plain,
                (Grammar::Json, State::Unicode(3), b'0') => return true,
                (Grammar::Json, State::Unicode(n), b'0') => State::Unicode(n + 1),
                (Grammar::Json, _, b'\\') => State::Escape,
                (Grammar::Form, State::Percent(1), b'0') => return true,
                (Grammar::Form, State::Percent(n), b'0') => State::Percent(n + 1),
                (Grammar::Form, _, b'%') => State::Percent(0),
                _ => State::Plain,
            };
        }
        false
    }
}

/// True when a raw (percent-encoded) path or query string decodes to a NUL.
pub fn uri_part_has_nul(raw: &str) -> bool {
    Scanner::new(Grammar::Form).feed(raw.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_nul_is_found_as_byte_and_as_escape_but_not_behind_an_escaped_backslash() {
        assert!(json_contains_nul(br#"{"text":"a\u0000b"}"#));
        assert!(json_contains_nul(b"{\"text\":\"a\0b\"}"));
        assert!(json_contains_nul(br#"{"text":"\\\u0000"}"#), "an escaped backslash, then the escape");
        assert!(!json_contains_nul(br#"{"text":"a\\u0000b"}"#), "an escaped backslash and the text u0000");
        assert!(!json_contains_nul(br#"{"text":"\\\\u0000"}"#));
        assert!(!json_contains_nul(br#"{"text":"\u0001 \u1000 \u000a u0000"}"#));
        assert!(!json_contains_nul(br#"{"n":0,"list":[0,0,0,0]}"#));
    }

    #[test]
    fn an_escape_cut_by_a_chunk_boundary_is_still_found() {
        let body = br#"{"text":"abc\u0000"}"#;
        for cut in 0..body.len() {
            let mut scan = Scanner::new(Grammar::Json);
            let found = scan.feed(&body[..cut]) || scan.feed(&body[cut..]);
            assert!(found, "cut at {cut}");
        }
        let fine = br#"{"text":"abc\\u0000"}"#;
        for cut in 0..fine.len() {
            let mut scan = Scanner::new(Grammar::Json);
            assert!(!(scan.feed(&fine[..cut]) || scan.feed(&fine[cut..])), "cut at {cut}");
        }
    }

    #[test]
    fn forms_paths_and_queries_refuse_percent_zero_zero() {
        assert!(uri_part_has_nul("/api/integration/record-system/consult/%00/redirect"));
        assert!(uri_part_has_nul("q=a%00"));
        assert!(!uri_part_has_nul("q=%0a%20%100"));
        assert!(!uri_part_has_nul("/api/jobs/01HZX0000"));
        let mut form = Scanner::new(Grammar::Form);
        assert!(form.feed(b"email=a%0") || form.feed(b"0b"));
        assert!(!Scanner::new(Grammar::Text).feed(b"\\u0000 %00"));
        assert!(Scanner::new(Grammar::Text).feed(b"a\0"));
    }

    #[test]
    fn decoded_strings_are_checked_for_the_character() {
        assert!(contains_nul("a\0b"));
        assert!(!contains_nul("a\\u0000b"));
    }
}
