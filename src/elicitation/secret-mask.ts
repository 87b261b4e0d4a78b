/**
 * Hides a secret answer's value in text kept after the answer: a tool result that echoes
 * it, a later question that quotes it, the same value typed into a field that did not look
 * secret. Each value is hidden in the forms text carries it in, and a text that would
 * still show one is withheld whole. Pure.
 *
 * Values too short to hide inside other text (under SHORTEST_HIDDEN_INSIDE characters: a
 * PIN digit, a CVC, "yes") are hidden only where they stand alone, between characters that
 * are not letters or digits (`"cvc": "123"`, `code 7`), never inside a longer word or number:
 * masking every "7" in "2027-07-17" would garble the text, and the masks' places would spell
 * the value out to anyone reading it. A short value glued into a longer word stays; that is
 * the price of keeping the result readable. Empty and blank values hide nothing and are
 * left alone (masking every space would say the value was a space).
 */

import { MASKED } from './shown-answer';

/** What a text that would still show a secret after masking becomes (a value made of the mask's own dots, say). */
export const WITHHELD = '(withheld: it would show a secret answer)';
/** Values at least this long are hidden wherever they appear, even inside a word. */
export const SHORTEST_HIDDEN_INSIDE = 4;

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

function encoded(encode: (text: string) => string, text: string): string | undefined {
  try {
    return encode(text);
  } catch {
    // A lone surrogate cannot be percent-encoded, so no URL carries it that way.
    return undefined;
  }
}

const inJson = (text: string): string => JSON.stringify(text).slice(1, -1);

/**
 * The forms a value takes in text: as typed; inside a JSON string (a result's structured
 * content, the arguments), also with non-ASCII as `\u` escapes (Python's json.dumps), and
 * escaped twice (JSON text inside a JSON string); percent-encoded in a URL, a path or a
 * form body.
 */
export function secretForms(value: string): string[] {
  const json = inJson(value);
  const ascii = json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const component = encoded(encodeURIComponent, value);
  const forms = [value, json, ascii, inJson(json), component, encoded(encodeURI, value), component?.replace(/%20/g, '+')];
  return [...new Set(forms.filter((f): f is string => f !== undefined && f !== ''))];
}

export class SecretMask {
  /** One pattern for every form of every value, longest first, so a value that holds another is hidden whole. */
  private readonly pattern: RegExp | undefined;

  constructor(values: Iterable<string> = []) {
    const alternatives = new Map<string, string>();
    for (const value of values) {
      for (const candidate of new Set([value, value.trim()])) {
        if (candidate.trim() === '') continue;
        const alone = [...candidate].length < SHORTEST_HIDDEN_INSIDE;
        for (const form of secretForms(candidate)) {
          const escaped = escapeRegExp(form);
          const source = alone ? `(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])` : escaped;
          // A form one value hides everywhere is hidden everywhere.
          if (!alternatives.has(form) || !alone) alternatives.set(form, source);
        }
      }
    }
    const sources = [...alternatives].sort(([a], [b]) => b.length - a.length).map(([, source]) => source);
    this.pattern = sources.length > 0 ? new RegExp(sources.join('|'), 'gu') : undefined;
  }

  get active(): boolean {
    return this.pattern !== undefined;
  }

  /** The text with every form of every value masked; withheld whole when masking cannot hide them. */
  text(text: string): string {
    if (!this.pattern) return text;
    const out = text.replace(this.pattern, MASKED);
    // search() ignores the pattern's lastIndex; a match now is a value the mask itself recreates.
    return out.search(this.pattern) === -1 ? out : WITHHELD;
  }
}
