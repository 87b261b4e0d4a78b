/**
 * Server-supplied text shown in VS Code's own widgets stays text: `$(icon)` syntax would
 * render codicons in quick picks, and `[label](command:...)` would become a clickable
 * command link in notifications.
 */
import type { RequestSource } from '../elicitation/request';

/** Escapes `$(name)` so quick input shows it literally (VS Code's own escapeIcons rule). */
export function escapeIcons(text: string): string {
  return text.replace(/(\\)?\$\([a-z0-9-]+?(?:~[a-z0-9-]*?)?\)/gi, (match, escaped: string | undefined) =>
    escaped ? match : `\\${match}`,
  );
}

/** Breaks the `[text](target)` pattern notifications turn into links, without changing what is read. */
export function neutralizeLinks(text: string): string {
  return text.replace(/\]\(/g, ']\u200B(');
}

/** Text for a quick pick row, a title or a notification: icons and links neutralised, on one line. */
export function plain(text: string, maxLength = 2000): string {
  const oneLine = text.replace(/\s*\r?\n\s*/g, ' ');
  const cut = oneLine.length > maxLength ? `${oneLine.slice(0, maxLength - 1)}…` : oneLine;
  return neutralizeLinks(escapeIcons(cut));
}

/** Wraps text into lines of at most `width` characters, at spaces where it can. */
export function wrap(text: string, width = 88): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
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

/** "server · tool": which server is asking and, where known, for which tool. */
export function sourceLabel(source: RequestSource): string {
  return source.tool ? `${source.server} · ${source.tool}` : source.server;
}
