/**
 * A command line as a person types it in Add Agent… ("npx -y some-acp --flag 'a b'"), split
 * into the command and its arguments the way a POSIX shell splits words: quotes group, a
 * backslash escapes, nothing is expanded (no variables, no globs: the agent is started
 * without a shell); and back, as the line Add Agent… shows before it writes a command. Pure.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < line.length && /["\\$`]/.test(line[i + 1])) word += line[++i];
      else word += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`the command line has an unclosed ${quote === '"' ? 'double' : 'single'} quote`);
  if (inWord) words.push(word);
  return words;
}

/** Words a shell reads as they are: everything else is quoted. */
const PLAIN_WORD = /^[\w@%+=:,./-]+$/;

/**
 * The command as one line a person can read and type back (splitCommandLine gives the same
 * words): a word with spaces, quotes or anything a shell would expand is single-quoted.
 */
export function joinCommandLine(words: readonly string[]): string {
  return words.map((w) => (PLAIN_WORD.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}
