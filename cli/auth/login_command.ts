/**
 * The exact command that logs a user in again, as every auth hint prints it: with this run's profile when one
 * was chosen (and the user, whose grant the login adds to), and the scopes quoted so it can be pasted as is.
 */
export function loginCommandFor(profile?: string, user?: string): (scopes: string[]) => string {
  return (scopes) =>
    [
      "larkit",
      ...(profile ? ["--profile", profile] : []),
      ...(user ? ["--user", user] : []),
      "auth",
      "login",
      ...(scopes.length ? ["--scope", `"${scopes.join(" ")}"`] : []),
    ].join(" ");
}
