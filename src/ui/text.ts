/**
 * Server-supplied text shown in VS Code's own widgets stays text. What each widget
 * interprets was checked in the workbench (1.100 and 1.139; the UI test "server text that
 * looks like markup" holds it):
 * - quick pick rows and the status bar draw `$(name)` as an icon;
 * - the input box's message (prompt and validation) draws icons and turns
 *   `[label](command:...)` into a clickable command link;
 * - notifications turn `[label](target)` into links, but draw no icons;
 * - titles, placeholders, separators, dialogs and tree items show text as it is.
 * Each surface gets exactly the escaping it needs, so nothing else is changed on screen.
 * Every helper first removes the characters that reorder or hide text (bidi controls,
 * zero-width characters): before escaping, because `neutralizeLinks` adds a zero-width
 * space of its own on purpose. Dialogs, where a person approves what they read, show those
 * characters as `<U+XXXX>` instead, and fit their detail to the room the dialog has.
 */
import { DIALOG_ROOM, type FittedText, type Room, shownInput } from '../elicitation/fit-text';
import { showInvisible, withoutInvisible } from '../elicitation/plain-text';

/** Escapes `$(name)` so a widget that draws icons shows it literally (VS Code's own escapeIcons rule). */
export function escapeIcons(text: string): string {
  return withoutInvisible(text).replace(/(\\)?\$\([a-z0-9-]+?(?:~[a-z0-9-]*?)?\)/gi, (match, escaped: string | undefined) =>
    escaped ? match : `\\${match}`,
  );
}

/** Breaks the `[text](target)` pattern that becomes a link, without changing what is read. */
export function neutralizeLinks(text: string): string {
  return withoutInvisible(text).replace(/\]\(/g, ']\u200B(');
}

/** On one line, at most `maxLength` characters: for titles, placeholders, separators, dialogs and tree items. */
export function oneLine(text: string, maxLength = 2000): string {
  const line = withoutInvisible(text).replace(/\s*\r?\n\s*/g, ' ');
  return line.length > maxLength ? `${line.slice(0, maxLength - 1)}…` : line;
}

/** For quick pick rows and the status bar, which draw icons. */
export function iconSafe(text: string, maxLength = 2000): string {
  return escapeIcons(oneLine(text, maxLength));
}

/** For the status bar, which draws icons and links (escaped icons first: their line cleanup would drop the links' breaks). */
export function statusSafe(text: string, maxLength = 2000): string {
  return neutralizeLinks(iconSafe(text, maxLength));
}

/** For notifications, which draw links. */
export function linkSafe(text: string, maxLength = 2000): string {
  return neutralizeLinks(oneLine(text, maxLength));
}

/** For surfaces that interpret nothing but keep lines (dialog details, tooltips): at most `maxLength` characters. */
export function plain(text: string, maxLength = 4000): string {
  const kept = withoutInvisible(text);
  return kept.length > maxLength ? `${kept.slice(0, maxLength - 1)}…` : kept;
}

/** A dialog's heading: on one line, invisible and control characters shown as `<U+XXXX>`. */
export function dialogHeading(text: string, maxLength = 400): string {
  return oneLine(showInvisible(text), maxLength);
}

/**
 * A dialog's detail: invisible and control characters shown as `<U+XXXX>`, runs of blank
 * lines collapsed, and, when it does not fit the dialog, its start and its end with what
 * is hidden said between (incomplete: the dialog should offer the whole).
 */
export function dialogText(text: string, room: Room = DIALOG_ROOM): FittedText {
  return shownInput(text, room);
}

/** For the input box's prompt and validation message, which draw icons and links; lines are kept. */
export function messageSafe(text: string): string {
  return neutralizeLinks(escapeIcons(text));
}

/** Wraps text into lines of at most `width` characters, at spaces where it can. */
export function wrap(text: string, width = 88): string[] {
  const lines: string[] = [];
  for (const paragraph of withoutInvisible(text).split(/\r?\n/)) {
    let rest = paragraph.trimEnd();
    if (rest === '') {
      lines.push('');
      continue;
    }
    while (rest.length > width) {
      let cut = rest.lastIndexOf(' ', width);
      if (cut <= 0) cut = width;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut).trimStart();
    }
    lines.push(rest);
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** "server · tool": which server is asking and, where known, for which tool (and agent). */
export { sourceLabel } from '../elicitation/request';
