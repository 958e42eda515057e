// A word as a POSIX shell needs it typed, for the commands zot prints or writes back: bare when it
// holds only characters the shell takes literally, else in single quotes.
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
