/**
 * Says what an ECMA-262 pattern means in RE2's dialect (re2js), construct by construct,
 * so RE2 reaches the verdict JavaScript's engine would, in linear time.
 *
 * Where the two dialects read the same text differently, the RE2 text is written out
 * explicitly: `.` excludes all four ECMA-262 line terminators (RE2's only `\n`), `\s` is
 * ECMA-262's white space and line terminators (RE2's is ASCII), `\p{Script=Greek}` and
 * long category names are spelt as RE2 spells them, every literal is a `\x{...}` code
 * point, and every group is non-capturing. `\d`, `\w`, `\b`, `^` and `$` already mean the
 * same (ASCII; start and end of the whole text).
 *
 * Constructs RE2 has no linear-time answer for are refused with a message naming them:
 * back-references, lookahead anywhere but right after a leading `^`, lookahead inside a
 * lookbehind. A leading `^(?=A)(?!B)C` is checked as three RE2 patterns (`^A` matches,
 * `^B` does not, `^C` matches), which is exactly its meaning; that covers the usual
 * password rules. Lookbehind runs in re2js's linear-time lookbehind mode.
 */
import { MAX_NESTING, type ClassItem, type PatternNode, parsePattern, PatternSyntaxError } from './pattern-parse';

/** One RE2 pattern to run, and whether it must match or must not. */
export interface PlanPart {
  readonly re2: string;
  readonly mustMatch: boolean;
  readonly lookbehind: boolean;
}

/** The pattern matches when, for some alternative, every one of its parts holds. */
export interface PatternPlan {
  readonly alternatives: ReadonlyArray<readonly PlanPart[]>;
  /** An estimate of the RE2 program size, in instructions (the limits are written in it). */
  readonly size: number;
  /**
   * It uses `\b` or `\B`. Next to a character outside the BMP, re2js and V8 disagree with
   * each other (and V8 with ECMA-262: it finds a `\B` inside a surrogate pair), so such a
   * text gets no verdict rather than a guess.
   */
  readonly wordBoundary: boolean;
}

const MAX_CODE_POINT = 0x10ffff;
/** RE2's own bound on a repetition count, and on counts multiplied through nesting. */
const MAX_REPEAT = 1000;

type Range = readonly [number, number];

const DIGIT: Range[] = [[0x30, 0x39]];
const WORD: Range[] = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
/** ECMA-262 WhiteSpace and LineTerminator: what `\s` means there. */
const SPACE: Range[] = [
  [0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a],
  [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff],
];
/** ECMA-262's `.`: anything but a line terminator. */
const NOT_LINE_TERMINATOR = complement([[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]]);

function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

const ESCAPE_RANGES: Record<'d' | 'D' | 'w' | 'W' | 's' | 'S', readonly Range[]> = {
  d: DIGIT,
  D: complement(DIGIT),
  w: WORD,
  W: complement(WORD),
  s: SPACE,
  S: complement(SPACE),
};

/** ECMA-262's long General_Category names, as RE2 spells them (the short ones are shared). */
const CATEGORY_ALIASES: Readonly<Record<string, string>> = {
  Cased_Letter: 'LC', Close_Punctuation: 'Pe', Connector_Punctuation: 'Pc', Control: 'Cc', cntrl: 'Cc',
  Currency_Symbol: 'Sc', Dash_Punctuation: 'Pd', Decimal_Number: 'Nd', digit: 'Nd', Enclosing_Mark: 'Me',
  Final_Punctuation: 'Pf', Format: 'Cf', Initial_Punctuation: 'Pi', Letter: 'L', Letter_Number: 'Nl',
  Line_Separator: 'Zl', Lowercase_Letter: 'Ll', Mark: 'M', Combining_Mark: 'M', Math_Symbol: 'Sm',
  Modifier_Letter: 'Lm', Modifier_Symbol: 'Sk', Nonspacing_Mark: 'Mn', Number: 'N', Open_Punctuation: 'Ps',
  Other: 'C', Other_Letter: 'Lo', Other_Number: 'No', Other_Punctuation: 'Po', Other_Symbol: 'So',
  Paragraph_Separator: 'Zp', Private_Use: 'Co', Punctuation: 'P', punct: 'P', Separator: 'Z',
  Space_Separator: 'Zs', Spacing_Mark: 'Mc', Surrogate: 'Cs', Symbol: 'S', Titlecase_Letter: 'Lt',
  Unassigned: 'Cn', Uppercase_Letter: 'Lu',
};

/** Properties RE2 does not name, written as ranges. */
const PROPERTY_RANGES: Readonly<Record<string, readonly Range[]>> = {
  Any: [[0, MAX_CODE_POINT]],
  ASCII: [[0, 0x7f]],
};

function hex(cp: number): string {
  return `\\x{${cp.toString(16)}}`;
}

function literal(cp: number): string {
  // Letters and digits mean themselves in both dialects; everything else is spelt as a code point.
  return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) ? String.fromCharCode(cp) : hex(cp);
}

function rangesText(ranges: readonly Range[]): string {
  return ranges.map(([lo, hi]) => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`)).join('');
}

/**
 * A `\p{...}` as RE2 spells it, or ranges when RE2 has no name for it. Throws for what
 * neither can say (Script_Extensions, which RE2 does not know).
 */
function property(item: Extract<ClassItem, { t: 'property' }>): string {
  const [key, value] = item.name.includes('=') ? item.name.split('=', 2) : [undefined, item.name];
  let name: string;
  if (key === 'General_Category' || key === 'gc') name = CATEGORY_ALIASES[value] ?? value;
  else if (key === 'Script' || key === 'sc') name = value;
  else if (key !== undefined) throw new PatternSyntaxError(`the Unicode property ${key} (\\p{${item.name}}), which RE2 does not know`);
  else if (PROPERTY_RANGES[value]) {
    const ranges = item.negated ? complement(PROPERTY_RANGES[value]) : PROPERTY_RANGES[value];
    return rangesText(ranges);
  } else name = CATEGORY_ALIASES[value] ?? value;
  if (!/^[A-Za-z_]+$/.test(name)) throw new PatternSyntaxError(`an unknown Unicode property (\\p{${item.name}})`);
  return `\\${item.negated ? 'P' : 'p'}{${name}}`;
}

function classText(negated: boolean, items: readonly ClassItem[]): string {
  if (items.length === 0) {
    // ECMA-262's `[]` matches nothing and `[^]` anything; RE2 has no empty class.
    return negated ? `[${hex(0)}-${hex(MAX_CODE_POINT)}]` : `[^${hex(0)}-${hex(MAX_CODE_POINT)}]`;
  }
  const parts = items.map((item) =>
    item.t === 'range' ? rangesText([[item.lo, item.hi]]) : item.t === 'escape' ? rangesText(ESCAPE_RANGES[item.name]) : property(item),
  );
  return `[${negated ? '^' : ''}${parts.join('')}]`;
}

function refuse(what: string): never {
  throw new PatternSyntaxError(what);
}

interface Emitted {
  readonly text: string;
  readonly size: number;
}

/**
 * RE2 text and program size estimate for a node. `room` is what RE2 allows for a count
 * here: 1000 divided by the counts of the repetitions around it (RE2's repeatIsValid).
 */
function emit(node: PatternNode, room: number, inLookbehind: boolean): Emitted {
  switch (node.t) {
    case 'char':
      return { text: literal(node.cp), size: 1 };
    case 'dot':
      return { text: `[${rangesText(NOT_LINE_TERMINATOR)}]`, size: 1 };
    case 'class':
      return { text: classText(node.negated, node.items), size: 1 };
    case 'seq': {
      const parts = node.items.map((item) => emit(item, room, inLookbehind));
      return { text: parts.map((p) => p.text).join(''), size: parts.reduce((sum, p) => sum + p.size, 0) };
    }
    case 'alt': {
      const parts = node.options.map((option) => emit(option, room, inLookbehind));
      return { text: parts.map((p) => p.text).join('|'), size: parts.reduce((sum, p) => sum + p.size + 1, -1) };
    }
    case 'group': {
      const body = emit(node.body, room, inLookbehind);
      return { text: `(?:${body.text})`, size: body.size };
    }
    case 'repeat': {
      const { min, max } = node;
      // RE2 counts `{n,}` by its n and leaves `*`, `+`, `?` out of the product.
      const counted = !(max === Infinity && min <= 1) && !(min === 0 && max === 1);
      const count = max === Infinity ? min : max;
      if (counted && count > room) {
        const written = max === min ? `{${min}}` : `{${min},${max === Infinity ? '' : max}}`;
        refuse(count > MAX_REPEAT ? `a repetition count above ${MAX_REPEAT} (${written})` : `nested repetitions whose counts multiply past ${MAX_REPEAT} (${written} inside another)`);
      }
      const body = emit(node.body, counted && count > 0 ? Math.floor(room / count) : room, inLookbehind);
      const quantifier =
        max === Infinity ? (min === 0 ? '*' : min === 1 ? '+' : `{${min},}`) : min === 0 && max === 1 ? '?' : min === max ? `{${min}}` : `{${min},${max}}`;
      const copies = max === Infinity ? Math.max(min, 1) : max;
      return { text: `(?:${body.text})${quantifier}`, size: copies * body.size + (max === Infinity ? 1 : max - min) };
    }
    case 'assert':
      return { text: { start: '^', end: '$', word: '\\b', 'not-word': '\\B' }[node.kind], size: 1 };
    case 'look': {
      if (!node.behind) refuse(inLookbehind ? 'a lookahead inside a lookbehind' : 'a lookahead ((?=...) or (?!...)) anywhere but right after a leading ^');
      const body = emit(node.body, room, true);
      return { text: `(?<${node.negate ? '!' : '='}${body.text})`, size: body.size + 2 };
    }
    case 'backref':
      return refuse(`a back-reference (${node.text}): RE2 checks patterns in linear time and has none`);
  }
}

/** The nodes directly inside one: a sequence's items, an alternation's options, a group's, repeat's or lookaround's body. */
function childrenOf(node: PatternNode): readonly PatternNode[] {
  switch (node.t) {
    case 'seq':
      return node.items;
    case 'alt':
      return node.options;
    case 'group':
    case 'repeat':
    case 'look':
      return [node.body];
    default:
      return [];
  }
}

/** Whether any node of the tree, the root included, passes `test`. */
function anyNode(node: PatternNode, test: (node: PatternNode) => boolean): boolean {
  return test(node) || childrenOf(node).some((child) => anyNode(child, test));
}

const hasLookbehind = (node: PatternNode): boolean => anyNode(node, (n) => n.t === 'look' && n.behind);
const hasLookahead = (node: PatternNode): boolean => anyNode(node, (n) => n.t === 'look' && !n.behind);
const hasWordAssertion = (node: PatternNode): boolean => anyNode(node, (n) => n.t === 'assert' && (n.kind === 'word' || n.kind === 'not-word'));

function part(node: PatternNode, prefix: string, mustMatch: boolean): PlanPart & { size: number } {
  const { text, size } = emit(node, MAX_REPEAT, false);
  return { re2: `${prefix}${prefix ? `(?:${text})` : text}`, mustMatch, lookbehind: hasLookbehind(node), size: size + (prefix ? 1 : 0) };
}

/**
 * `^(?=A)(?!B)C`, one alternative of the pattern, as the parts that must (not) match at
 * the start. Anything else with a lookahead in it is refused by emit.
 */
function alternativeParts(node: PatternNode): Array<PlanPart & { size: number }> {
  const items = node.t === 'seq' ? node.items : [node];
  if (!hasLookahead(node)) return [part(node, '', true)];
  const leading = items[0]?.t === 'assert' && items[0].kind === 'start';
  let i = leading ? 1 : 0;
  const parts: Array<PlanPart & { size: number }> = [];
  for (; leading && i < items.length; i++) {
    const item = items[i];
    if (item.t !== 'look' || item.behind) break;
    parts.push(part(item.body, '^', !item.negate));
  }
  const rest = items.slice(i);
  parts.push(part(rest.length === 1 ? rest[0] : { t: 'seq', items: rest }, leading ? '^' : '', true));
  return parts;
}

/** What the pattern means in RE2 terms. Throws PatternSyntaxError naming what cannot be said. */
export function planPattern(source: string): PatternPlan {
  const root = parsePattern(source);
  const options = root.t === 'alt' && hasLookahead(root) ? root.options : [root];
  const alternatives = options.map(alternativeParts);
  const size = alternatives.flat().reduce((sum, p) => sum + p.size, 0);
  return {
    alternatives: alternatives.map((parts) => parts.map(({ re2, mustMatch, lookbehind }) => ({ re2, mustMatch, lookbehind }))),
    size,
    wordBoundary: hasWordAssertion(root),
  };
}

export { MAX_NESTING, PatternSyntaxError };
