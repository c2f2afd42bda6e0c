/**
 * Text as search sees it: accents removed (é → e, ë → e), lower case, one space between words.
 * The api's `domain::text::normalize` does exactly the same, so both sides find the same.
 */
export function normalize(s: string): string {
  return (
    s
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      // Unicode white space, as Rust's `split_whitespace` sees it (JavaScript's \s differs slightly)
      .replace(/\p{White_Space}+/gu, ' ')
      .replace(/^ | $/g, '')
  )
}

/** The distinct words of a search, normalised, in the order typed. */
export function words(query: string): string[] {
  const normalized = normalize(query)
  if (normalized === '') return []
  return [...new Set(normalized.split(' '))]
}
