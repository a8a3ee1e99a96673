/**
 * Emails name one person whatever their case, as the database's unique index on lower(email) does. Orders use it too
 * (is the email a caller asks about their own?); the SQL side of the same rule is `byEmail` in user-repository.ts.
 */
export function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
