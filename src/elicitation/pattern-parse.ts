/**
 * Reads a JSON Schema `pattern` (ECMA-262 syntax, as ajv reads it: the `u` flag, no
 * other) into a tree, so that pattern-compile.ts can say exactly what it means in RE2's
 * dialect. The host checks the syntax with the native engine first (schema.ts), so this
 * parser only has to understand valid patterns; anything it does not know is refused.
 */

export class PatternSyntaxError extends Error {}

/** One character set member: a range of code points, a class escape or a Unicode property. */
export type ClassItem =
  | { readonly t: 'range'; readonly lo: number; readonly hi: number }
  | { readonly t: 'escape'; readonly name: 'd' | 'D' | 'w' | 'W' | 's' | 'S' }
  | { readonly t: 'property'; readonly negated: boolean; readonly name: string };

export type PatternNode =
  | { readonly t: 'char'; readonly cp: number }
  | { readonly t: 'dot' }
  | { readonly t: 'class'; readonly negated: boolean; readonly items: readonly ClassItem[] }
  | { readonly t: 'seq'; readonly items: readonly PatternNode[] }
  | { readonly t: 'alt'; readonly options: readonly PatternNode[] }
  | { readonly t: 'group'; readonly body: PatternNode }
  | { readonly t: 'repeat'; readonly body: PatternNode; readonly min: number; readonly max: number }
  | { readonly t: 'assert'; readonly kind: 'start' | 'end' | 'word' | 'not-word' }
  | { readonly t: 'look'; readonly behind: boolean; readonly negate: boolean; readonly body: PatternNode }
  | { readonly t: 'backref'; readonly text: string };

/** Deeper nesting than this is refused: no real pattern needs it, and it bounds recursion. */
export const MAX_NESTING = 200;

const SYNTAX_CHARS = '^$\\.*+?()[]{}|/';
const CLASS_ESCAPES = 'dDwWsS';

function isHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly src: string) {}

  parse(): PatternNode {
    const node = this.disjunction();
    if (this.pos < this.src.length) this.fail(`unexpected '${this.src[this.pos]}'`);
    return node;
  }

  private fail(message: string): never {
    throw new PatternSyntaxError(`${message} at ${this.pos}`);
  }

  private peek(offset = 0): string | undefined {
    return this.src[this.pos + offset];
  }

  private eat(text: string): boolean {
    if (!this.src.startsWith(text, this.pos)) return false;
    this.pos += text.length;
    return true;
  }

  private disjunction(): PatternNode {
    if (++this.depth > MAX_NESTING) this.fail(`nests deeper than ${MAX_NESTING} levels`);
    const options = [this.alternative()];
    while (this.eat('|')) options.push(this.alternative());
    this.depth--;
    return options.length === 1 ? options[0] : { t: 'alt', options };
  }

  private alternative(): PatternNode {
    const items: PatternNode[] = [];
    while (this.pos < this.src.length && this.peek() !== '|' && this.peek() !== ')') items.push(this.term());
    return items.length === 1 ? items[0] : { t: 'seq', items };
  }

  private term(): PatternNode {
    if (this.eat('^')) return { t: 'assert', kind: 'start' };
    if (this.eat('$')) return { t: 'assert', kind: 'end' };
    if (this.eat('\\b')) return { t: 'assert', kind: 'word' };
    if (this.eat('\\B')) return { t: 'assert', kind: 'not-word' };
    for (const [prefix, behind, negate] of [['(?=', false, false], ['(?!', false, true], ['(?<=', true, false], ['(?<!', true, true]] as const) {
      if (this.eat(prefix)) {
        const body = this.disjunction();
        if (!this.eat(')')) this.fail("expected ')'");
        // ECMA-262 lets a lookahead be quantified only outside `u` mode; ajv uses `u`.
        return { t: 'look', behind, negate, body };
      }
    }
    return this.quantified(this.atom());
  }

  private atom(): PatternNode {
    const c = this.peek();
    if (c === '(') return this.group();
    if (c === '.') {
      this.pos++;
      return { t: 'dot' };
    }
    if (c === '[') return this.characterClass();
    if (c === '\\') return this.atomEscape();
    if (c === undefined || '*+?{}]'.includes(c)) this.fail(`unexpected '${c ?? 'end'}'`);
    const cp = this.src.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return { t: 'char', cp };
  }

  private group(): PatternNode {
    this.pos++; // (
    if (this.eat('?:')) {
      // a plain group
    } else if (this.peek() === '?' && this.peek(1) === '<') {
      const close = this.src.indexOf('>', this.pos);
      if (close < 0) this.fail('unterminated group name');
      this.pos = close + 1;
    } else if (this.peek() === '?') {
      this.fail('unsupported group syntax');
    }
    const body = this.disjunction();
    if (!this.eat(')')) this.fail("expected ')'");
    return { t: 'group', body };
  }

  private quantified(body: PatternNode): PatternNode {
    let min: number;
    let max: number;
    const c = this.peek();
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos, this.pos + 40));
      if (!m) this.fail('malformed quantifier');
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      if (min > max) this.fail('numbers out of order in quantifier');
      this.pos += m[0].length - 1;
    } else {
      return body;
    }
    this.pos++;
    this.eat('?'); // lazy or greedy: the same answer to "is there a match"
    return { t: 'repeat', body, min, max };
  }

  private atomEscape(): PatternNode {
    const c = this.peek(1);
    if (c !== undefined && c >= '1' && c <= '9') {
      const m = /^\\\d+/.exec(this.src.slice(this.pos, this.pos + 12))!;
      this.pos += m[0].length;
      return { t: 'backref', text: m[0] };
    }
    if (c === 'k') {
      const close = this.src.indexOf('>', this.pos);
      if (this.peek(2) !== '<' || close < 0) this.fail('malformed \\k');
      const text = this.src.slice(this.pos, close + 1);
      this.pos = close + 1;
      return { t: 'backref', text };
    }
    const item = this.escape(false);
    if (typeof item === 'number') return { t: 'char', cp: item };
    return { t: 'class', negated: false, items: [item] };
  }

  /** After a backslash: a code point, or a class item (`\d`, `\p{L}`). */
  private escape(inClass: boolean): number | ClassItem {
    this.pos++; // backslash
    const c = this.peek();
    if (c === undefined) this.fail('\\ at end of pattern');
    this.pos++;
    if (CLASS_ESCAPES.includes(c)) return { t: 'escape', name: c as 'd' };
    switch (c) {
      case 'p':
      case 'P': {
        const close = this.src.indexOf('}', this.pos);
        if (this.peek() !== '{' || close < 0) this.fail('malformed \\p{...}');
        const name = this.src.slice(this.pos + 1, close);
        this.pos = close + 1;
        return { t: 'property', negated: c === 'P', name };
      }
      case 'f':
        return 0x0c;
      case 'n':
        return 0x0a;
      case 'r':
        return 0x0d;
      case 't':
        return 0x09;
      case 'v':
        return 0x0b;
      case 'c': {
        const letter = this.peek();
        if (letter === undefined || !/[A-Za-z]/.test(letter)) this.fail('malformed \\c');
        this.pos++;
        return letter.charCodeAt(0) % 32;
      }
      case '0':
        if (/[0-9]/.test(this.peek() ?? '')) this.fail('octal escapes are not allowed');
        return 0;
      case 'x':
        return this.hex(2);
      case 'u':
        return this.unicodeEscape();
      case 'b':
        if (inClass) return 0x08;
        break;
      case '-':
        if (inClass) return 0x2d;
        break;
    }
    if (SYNTAX_CHARS.includes(c)) return c.charCodeAt(0);
    return this.fail(`invalid escape \\${c}`);
  }

  private hex(digits: number): number {
    const text = this.src.slice(this.pos, this.pos + digits);
    if (text.length !== digits || ![...text].every((d) => isHex(d.charCodeAt(0)))) this.fail('malformed hexadecimal escape');
    this.pos += digits;
    return parseInt(text, 16);
  }

  private unicodeEscape(): number {
    if (this.eat('{')) {
      const close = this.src.indexOf('}', this.pos);
      const text = close < 0 ? '' : this.src.slice(this.pos, close);
      if (!/^[0-9a-fA-F]{1,8}$/.test(text) || parseInt(text, 16) > 0x10ffff) this.fail('malformed \\u{...}');
      this.pos = close + 1;
      return parseInt(text, 16);
    }
    const lead = this.hex(4);
    // In `u` mode a surrogate pair written as two escapes is one code point.
    if (lead >= 0xd800 && lead <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(this.src.slice(this.pos, this.pos + 6))) {
      const trail = parseInt(this.src.slice(this.pos + 2, this.pos + 6), 16);
      this.pos += 6;
      return (lead - 0xd800) * 0x400 + (trail - 0xdc00) + 0x10000;
    }
    return lead;
  }

  private characterClass(): PatternNode {
    this.pos++; // [
    const negated = this.eat('^');
    const items: ClassItem[] = [];
    while (this.peek() !== ']') {
      if (this.pos >= this.src.length) this.fail('unterminated character class');
      const from = this.classAtom();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.pos++;
        const to = this.classAtom();
        if (typeof from !== 'number' || typeof to !== 'number') this.fail('a class escape cannot bound a range');
        if (from > to) this.fail('range out of order in character class');
        items.push({ t: 'range', lo: from, hi: to });
      } else {
        items.push(typeof from === 'number' ? { t: 'range', lo: from, hi: from } : from);
      }
    }
    this.pos++; // ]
    return { t: 'class', negated, items };
  }

  private classAtom(): number | ClassItem {
    if (this.peek() === '\\') return this.escape(true);
    const cp = this.src.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }
}

/** The pattern's tree. Throws PatternSyntaxError for what it cannot read. */
export function parsePattern(source: string): PatternNode {
  return new Parser(source).parse();
}
