/**
 * Which lines of a shell command run something: every line but blank lines and comments.
 * A line that only looks like a comment is not one inside a here-document, a quoted string
 * that spans lines, or after a line continuation (`cat > x.c <<EOF` then `#define ...` is
 * code someone may compile and run): such lines count as running, so a dialog never hides
 * them as harmless. A small lexer of shell quoting (quotes, `$'...'`, `$(...)` and
 * backticks, nested), not a parser: a line that starts inside any of them counts as
 * running, even where the shell would take it for a comment. Pure.
 */

interface HereDoc {
  readonly delimiter: string;
  /** `<<-`: leading tabs are stripped, so the closing line may be indented with tabs. */
  readonly stripTabs: boolean;
}

/** What the lexer is inside of: quotes, `$(...)` (with its own parentheses), backticks. */
type Context = 'single' | 'double' | 'ansi' | 'subst' | 'paren' | 'backtick';

/** Characters after which a `#` starts a comment (a word starts there). */
const WORD_BREAK = /[\s;&|()<>`]/;

/** Reads a here-document's delimiter at `at` (after `<<` or `<<-` and blanks): quotes removed. */
function readDelimiter(line: string, at: number): { delimiter: string; end: number } | undefined {
  let i = at;
  while (line[i] === ' ' || line[i] === '\t') i++;
  let delimiter = '';
  while (i < line.length && !/[\s;&|()<>]/.test(line[i])) {
    const c = line[i];
    if (c === "'" || c === '"') {
      const close = line.indexOf(c, i + 1);
      if (close < 0) return undefined;
      delimiter += line.slice(i + 1, close);
      i = close + 1;
    } else if (c === '\\' && i + 1 < line.length) {
      delimiter += line[i + 1];
      i += 2;
    } else {
      delimiter += c;
      i++;
    }
  }
  return delimiter === '' ? undefined : { delimiter, end: i };
}

/** For each line: true when it runs something (or may), false for blank lines and comments. */
export function runningLines(lines: readonly string[]): boolean[] {
  const result: boolean[] = [];
  const stack: Context[] = [];
  let continued = false;
  const hereDocs: HereDoc[] = [];
  let inHereDoc: HereDoc | undefined;

  for (const line of lines) {
    if (inHereDoc) {
      result.push(true);
      const closing = inHereDoc.stripTabs ? line.replace(/^\t+/, '') : line;
      if (closing === inHereDoc.delimiter) inHereDoc = hereDocs.shift();
      continue;
    }
    // Blanks are spaces and tabs only: to the shell a no-break space is part of a word ("\u00A0#" is a command).
    const trimmed = line.replace(/^[ \t]+/, '').replace(/[ \t]+$/, '');
    // Only at the top level is a line that looks like a comment one for sure.
    if (stack.length === 0 && !continued && (trimmed === '' || trimmed.startsWith('#'))) {
      result.push(false);
      continue;
    }
    result.push(true);
    continued = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      const top = stack[stack.length - 1];
      if (top === 'single') {
        if (c === "'") stack.pop();
        continue;
      }
      if (top === 'double' || top === 'ansi') {
        if (c === '\\') i++;
        else if ((top === 'double' && c === '"') || (top === 'ansi' && c === "'")) stack.pop();
        else if (top === 'double' && c === '$' && line[i + 1] === '(') {
          stack.push('subst');
          i++;
        } else if (top === 'double' && c === '`') stack.push('backtick');
        continue;
      }
      // The top level, or code inside $(...), (...) or backticks.
      if (c === '\\') {
        if (i === line.length - 1) continued = true;
        i++;
      } else if (c === "'") {
        stack.push(i > 0 && line[i - 1] === '$' ? 'ansi' : 'single');
      } else if (c === '"') {
        stack.push('double');
      } else if (c === '`') {
        if (top === 'backtick') stack.pop();
        else stack.push('backtick');
      } else if (c === '$' && line[i + 1] === '(') {
        stack.push('subst');
        i++;
      } else if (c === '(' && (top === 'subst' || top === 'paren')) {
        stack.push('paren');
      } else if (c === ')' && (top === 'subst' || top === 'paren')) {
        stack.pop();
      } else if (c === '#' && top !== 'backtick' && (i === 0 || WORD_BREAK.test(line[i - 1]))) {
        // (The shell finds a backtick's end before it reads comments: none inside them.)
        break;
      } else if (c === '<' && line[i + 1] === '<' && line[i + 2] !== '<') {
        const stripTabs = line[i + 2] === '-';
        const read = readDelimiter(line, i + (stripTabs ? 3 : 2));
        if (read) {
          hereDocs.push({ delimiter: read.delimiter, stripTabs });
          i = read.end - 1;
        } else {
          i++;
        }
      } else if (c === '<' && line[i + 1] === '<') {
        // A here-string (<<<): one word, no body.
        i += 2;
      }
    }
    // A here-document's body starts on the next line, however deep in $(...) the line ends, but not inside a quote.
    const last = stack[stack.length - 1];
    if (!continued && last !== 'single' && last !== 'double' && last !== 'ansi' && hereDocs.length > 0) inHereDoc = hereDocs.shift();
  }
  return result;
}
