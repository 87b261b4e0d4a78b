/**
 * Reads Markdown the way GitHub renders it, as far as links go: the links and images of a
 * page (inline, reference definitions, HTML `href`/`src`), each with its line, skipping
 * fenced code and code spans; the anchors a page's headings get (GitHub's slugs); and a
 * check of every relative link and `#anchor` of a set of pages against the files they name.
 * No Markdown library: the project has none of its own, and these few rules are all the
 * check needs (test/unit/doc-links.test.ts shows each one).
 */
import { posix } from 'node:path';

export interface DocLink {
  readonly line: number;
  readonly target: string;
}

export interface BrokenLink {
  readonly file: string;
  readonly line: number;
  readonly target: string;
  readonly problem: string;
}

/** What the check needs of the repository: which paths are files or folders, and a page's text. */
export interface DocTree {
  kind(path: string): 'file' | 'folder' | 'uncommitted' | undefined;
  read(path: string): string;
}

/** A fence opens with three or more backticks or tildes, at any indent (a list item's fence is indented). */
const FENCE = /^\s*(`{3,}|~{3,})/;

/** The text with fenced code blocks blanked, line for line, so line numbers stay. */
function withoutFences(markdown: string): string[] {
  const lines = markdown.split('\n');
  let fence: string | undefined;
  return lines.map((line) => {
    const open = FENCE.exec(line);
    if (fence === undefined) {
      if (open) fence = open[1];
      return open ? '' : line;
    }
    if (open && open[1][0] === fence[0] && open[1].length >= fence.length && line.trim() === open[1]) fence = undefined;
    return '';
  });
}

/** Code spans blanked (newlines kept): a span may wrap a line but not cross a blank line. */
function withoutCodeSpans(text: string): string {
  let out = '';
  let at = 0;
  while (at < text.length) {
    const tick = text.indexOf('`', at);
    if (tick < 0) break;
    let run = tick;
    while (text[run] === '`') run++;
    const ticks = text.slice(tick, run);
    const paragraphEnd = text.indexOf('\n\n', run);
    const searchEnd = paragraphEnd < 0 ? text.length : paragraphEnd;
    let close = text.indexOf(ticks, run);
    while (close >= 0 && close < searchEnd && text[close + ticks.length] === '`') close = text.indexOf(ticks, close + ticks.length + 1);
    if (close < 0 || close >= searchEnd) {
      out += text.slice(at, run);
      at = run;
      continue;
    }
    out += text.slice(at, tick) + text.slice(tick, close + ticks.length).replace(/[^\n]/g, ' ');
    at = close + ticks.length;
  }
  return out + text.slice(at);
}

const INLINE = /\]\(\s*(?:<([^>\n]*)>|((?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*))/g;
const DEFINITION = /^ {0,3}\[[^\]\n]+\]:[ \t]*(?:<([^>\n]*)>|(\S+))/gm;
const HTML = /<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*["']([^"']*)["']/gi;

/** Every link and image target of a page, with its 1-based line. */
export function markdownLinks(markdown: string): DocLink[] {
  const text = withoutCodeSpans(withoutFences(markdown).join('\n'));
  const lineOf = (index: number): number => text.slice(0, index).split('\n').length;
  const links: DocLink[] = [];
  for (const pattern of [INLINE, DEFINITION, HTML]) {
    for (const match of text.matchAll(pattern)) {
      const target = match[1] ?? match[2] ?? '';
      if (target !== '') links.push({ line: lineOf(match.index), target: target.replace(/\\(.)/g, '$1') });
    }
  }
  return links.sort((a, b) => a.line - b.line);
}

/**
 * GitHub's anchor for a heading's text: lower case, everything but letters, marks, decimal
 * digits, connector punctuation (`_`), `-` and spaces removed, each space a `-`
 * (html-pipeline's `[^\p{Word}\- ]`, which github-slugger copies).
 */
export function githubSlug(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{Nd}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** A heading's Markdown as the text GitHub renders: no code ticks, emphasis, link targets or tags. */
function headingText(markdown: string): string {
  const parts = markdown.split(/(`+[^`]*`+)/);
  return parts
    .map((part, index) => {
      if (index % 2 === 1) return part.replace(/^`+|`+$/g, '');
      return part
        .replace(/!\[([^\]]*)\]\([^)]*\)/g, '')
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/<[^>]+>/g, '')
        .replace(/\\(.)/g, '$1')
        .replace(/\*+/g, '')
        .replace(/(^|[\s\p{P}])_+|_+(?=[\s\p{P}]|$)/gu, '$1');
    })
    .join('')
    .trim();
}

/** The anchors a page offers: its headings' slugs (repeats numbered -1, -2, as GitHub does) and HTML ids and names. */
export function headingAnchors(markdown: string): Set<string> {
  const lines = withoutFences(markdown);
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const add = (heading: string): void => {
    const slug = githubSlug(headingText(heading));
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  };
  lines.forEach((line, index) => {
    const atx = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) return add(atx[1] ?? '');
    const previous = lines[index - 1];
    if (/^ {0,3}(?:=+|-+)[ \t]*$/.test(line) && previous !== undefined && previous.trim() !== '' && !/^ {0,3}(?:#|[-*+] |\d+[.)] |>|\|)/.test(previous)) add(previous.trim());
  });
  for (const match of markdown.matchAll(/<[a-z]+\b[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']/gi)) anchors.add(match[1]);
  return anchors;
}

/** A target with a scheme (`https:`, `mailto:`, `vscode:`) or protocol-relative: not the repository's. */
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** Every relative link of these pages whose file, folder or anchor does not exist, in page and line order. */
export function brokenLinks(pages: readonly string[], tree: DocTree): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (path: string): Set<string> => {
    let found = anchorsOf.get(path);
    if (!found) anchorsOf.set(path, (found = headingAnchors(tree.read(path))));
    return found;
  };
  for (const page of pages) {
    for (const { line, target } of markdownLinks(tree.read(page))) {
      if (EXTERNAL.test(target)) continue;
      const report = (problem: string): void => void broken.push({ file: page, line, target, problem });
      const hash = target.indexOf('#');
      const rawPath = (hash < 0 ? target : target.slice(0, hash)).replace(/\?.*$/, '');
      let fragment: string;
      let path: string;
      try {
        fragment = hash < 0 ? '' : decodeURIComponent(target.slice(hash + 1));
        path = decodeURI(rawPath);
      } catch {
        report('is not a valid URL (a stray %)');
        continue;
      }
      const resolved = path === '' ? page : posix.normalize(path.startsWith('/') ? path.slice(1) : posix.join(posix.dirname(page), path)).replace(/\/$/, '');
      if (resolved === '..' || resolved.startsWith('../')) {
        report('leads out of the repository');
        continue;
      }
      const kind = tree.kind(resolved === '.' ? '' : resolved);
      if (kind === undefined) {
        report(`names ${resolved}, which does not exist`);
        continue;
      }
      if (kind === 'uncommitted') {
        report(`names ${resolved}, which is not committed (git add it)`);
        continue;
      }
      if (fragment === '' || kind === 'folder' || !/\.(md|markdown)$/i.test(resolved)) continue;
      if (!anchors(resolved).has(fragment)) report(`no heading of ${resolved} has the anchor #${fragment}`);
    }
  }
  return broken;
}
