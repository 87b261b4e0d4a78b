/**
 * Server text is shown as text: characters that change how the rest of a line reads
 * without being seen (bidirectional overrides and isolates, zero-width characters) are
 * removed on every surface, and terminals also lose control characters (escape sequences).
 * Pure: the extension host, the form page and the command line runner share it.
 */

/** Bidi embeddings, overrides and isolates; marks; zero-width space, joiners; word joiner; invisible operators; BOM. */
const INVISIBLE = /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/** C0 controls but tab and line feed, DEL, and the C1 controls (ESC starts every terminal escape sequence). */
// eslint-disable-next-line no-control-regex -- matching control characters is this module's job
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** Removes the characters that reorder or hide text (bidi controls, zero-width characters). */
export function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

/** For a terminal: without invisible characters and without control characters (tab and newline stay). */
export function terminalSafe(text: string): string {
  return withoutInvisible(text).replace(/\r\n/g, '\n').replace(CONTROL, '');
}

/**
 * What reorders, hides or breaks text on screen but not for the program that gets it: the
 * invisible characters above, control characters (tab and line feed excepted), the soft
 * hyphen, the Mongolian vowel separator, and the line and paragraph separators (a line
 * break in a dialog, an ordinary character to a shell).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this module's job
const SHOWN_AS_CODE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

function codeOf(char: string): string {
  return `<U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * For text a person approves (a command, a file's content) and any server or agent text in
 * a dialog: every character that would change what is read without being seen is shown
 * as `<U+XXXX>` rather than dropped, so what the person reads is what runs. CRLF is a line
 * break; a lone CR is shown.
 */
export function showInvisible(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(SHOWN_AS_CODE, codeOf);
}

/** A run of two or more blank lines becomes one line saying how many (blank lines push the rest out of sight). */
export function collapseBlankLines(text: string): string {
  return text.replace(/\n(?:[ \t]*\n){2,}/g, (run) => {
    const blank = run.split('\n').length - 2;
    return `\n<${blank} blank lines>\n`;
  });
}
