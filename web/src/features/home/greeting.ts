/** The name Home greets the user by: the profile's preferred name, otherwise the login name. */
export function greetingName(user: { preferredName?: string | null; username: string }): string {
  const preferred = user.preferredName?.trim()
  return preferred ? preferred : user.username
}
