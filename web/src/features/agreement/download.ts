/** The agreement in force: its version and the address of its PDF (served without a token). */
export const AGREEMENT_VERSION = 1
export const AGREEMENT_PDF = `/files/overeenkomst_v${AGREEMENT_VERSION}.pdf`

function storageKey(subject: string | undefined) {
  return `spreekkamer:overeenkomst-v${AGREEMENT_VERSION}-gedownload:${subject ?? ''}`
}

/** Whether this user downloaded the agreement earlier in this browser tab (a reload keeps it). */
export function wasDownloaded(subject: string | undefined): boolean {
  try {
    return window.sessionStorage.getItem(storageKey(subject)) === 'true'
  } catch {
    return false
  }
}

/** Remembers for this browser tab that the user downloaded the agreement. */
export function rememberDownload(subject: string | undefined): void {
  try {
    window.sessionStorage.setItem(storageKey(subject), 'true')
  } catch {
    // Without storage the screen's own state still counts.
  }
}
