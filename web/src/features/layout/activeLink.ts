/** The first segment of a path: '' for '/', 'template' for '/template/entry/12'. */
export function firstSegment(path: string): string {
  const pathname = path.split(/[?#]/, 1)[0] ?? ''
  return pathname.split('/').find((segment) => segment !== '') ?? ''
}

/** A navigation link is active when its first path segment equals that of the current location. */
export function isActiveLink(link: string, currentPathname: string): boolean {
  return firstSegment(link) === firstSegment(currentPathname)
}
