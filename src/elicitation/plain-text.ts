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
