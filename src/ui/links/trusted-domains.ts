/**
 * VS Code's list of trusted sites, as the document "Manage Trusted Domains" edits (JSON with
 * comments: a list of origins and patterns), and the one origin a link needs there. Pure:
 * link-trust.ts reads and writes the document.
 */
import { parse, type ParseError } from 'jsonc-parser';

/** The origin VS Code's trusted-domain check matches: `https://host[:port]`, nothing wider. */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The list with `origin` added, as a document, or undefined when it already lists it, or
 * is not the list it should be (then it is left alone). Pure.
 */
export function withTrustedOrigin(document: string, origin: string): string | undefined {
  const errors: ParseError[] = [];
  const list: unknown = parse(document, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || !Array.isArray(list) || !list.every((entry) => typeof entry === 'string')) return undefined;
  if (list.includes(origin) || list.includes('*')) return undefined;
  // Only lent for one open, then the document is put back as it was: its comments can wait.
  return `${JSON.stringify([...list, origin], null, 2)}\n`;
}
