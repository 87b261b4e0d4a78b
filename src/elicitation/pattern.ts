/**
 * JSON Schema `pattern` (ECMA-262 syntax, `u` mode, unanchored) evaluated with a bounded
 * amount of work. A native RegExp can backtrack for hours on a hostile pattern such as
 * `^(a+)+$`, and nothing can interrupt it on the extension host's thread; this matcher
 * counts its steps and gives up with `too-complex` instead. It is synchronous and pure, so
 * the webview runs the very same checks.
 *
 * Structure (sequence, alternation, groups, quantifiers, anchors, word boundaries,
 * back-references, lookarounds) is interpreted here. A single-character test (a literal,
 * `.`, `\d`, `\p{L}`, `[a-z]`...) is delegated to a native RegExp run on one character,
 * which cannot backtrack, so character class semantics stay exactly ECMAScript's.
 */

export type PatternOutcome = 'match' | 'no-match' | 'too-complex';

export interface BoundedPattern {
  readonly source: string;
  test(text: string): PatternOutcome;
}

export class PatternSyntaxError extends Error {}

/** Work allowed for one `test`: enough for a 100 kB string against an ordinary pattern. */
export const DEFAULT_STEP_BUDGET = 2_000_000;
/** Counted repetition is unrolled; this bounds the unrolled program. */
const MAX_PROGRAM_SIZE = 50_000;

type CharPredicate = (codePoint: number) => boolean;

type Node =
  | { t: 'char'; pred: CharPredicate }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; options: Node[] }
  | { t: 'group'; capture: number | null; body: Node }
  | { t: 'repeat'; body: Node; min: number; max: number; greedy: boolean }
  | { t: 'assert'; kind: 'start' | 'end' | 'word' | 'not-word' }
  | { t: 'backref'; ref: number | string }
  | { t: 'look'; behind: boolean; negate: boolean; body: Node };

type Inst =
  | { op: 'char'; pred: CharPredicate }
  | { op: 'split'; prefer: number; other: number }
  | { op: 'jmp'; to: number }
  | { op: 'save'; slot: number }
  | { op: 'assert'; kind: 'start' | 'end' | 'word' | 'not-word' }
  | { op: 'backref'; group: number }
  | { op: 'look'; behind: boolean; negate: boolean; prog: Program }
  | { op: 'mark'; index: number }
  | { op: 'progress'; index: number }
  | { op: 'match' };

interface Program {
  insts: Inst[];
}

const predicateCache = new Map<string, CharPredicate>();

function nativeCharPredicate(atomSource: string): CharPredicate {
  let pred = predicateCache.get(atomSource);
  if (!pred) {
    const re = new RegExp(`^(?:${atomSource})$`, 'u');
    pred = (cp) => re.test(String.fromCodePoint(cp));
    predicateCache.set(atomSource, pred);
  }
  return pred;
}

function literalPredicate(codePoint: number): CharPredicate {
  return (cp) => cp === codePoint;
}

class Parser {
  private pos = 0;
  groupCount = 0;
  readonly groupNames = new Map<string, number>();

  constructor(private readonly src: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.pos < this.src.length) {
      throw new PatternSyntaxError(`unexpected '${this.src[this.pos]}' at ${this.pos}`);
    }
    return node;
  }

  private peek(offset = 0): string | undefined {
    return this.src[this.pos + offset];
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.pos++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0] : { t: 'alt', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.pos < this.src.length && this.peek() !== '|' && this.peek() !== ')') {
      items.push(this.term());
    }
    return items.length === 1 ? items[0] : { t: 'seq', items };
  }

  private term(): Node {
    const c = this.peek();
    if (c === '^') {
      this.pos++;
      return { t: 'assert', kind: 'start' };
    }
    if (c === '$') {
      this.pos++;
      return { t: 'assert', kind: 'end' };
    }
    if (c === '\\' && (this.peek(1) === 'b' || this.peek(1) === 'B')) {
      const kind = this.peek(1) === 'b' ? 'word' : 'not-word';
      this.pos += 2;
      return { t: 'assert', kind };
    }
    if (c === '(' && this.peek(1) === '?') {
      const look = this.lookaround();
      if (look) return look;
    }
    return this.quantified(this.atom());
  }

  private lookaround(): Node | undefined {
    const rest = this.src.slice(this.pos, this.pos + 4);
    const kinds: Array<[string, boolean, boolean]> = [
      ['(?=', false, false],
      ['(?!', false, true],
      ['(?<=', true, false],
      ['(?<!', true, true],
    ];
    for (const [prefix, behind, negate] of kinds) {
      if (rest.startsWith(prefix)) {
        this.pos += prefix.length;
        const body = this.alternation();
        this.expect(')');
        return { t: 'look', behind, negate, body };
      }
    }
    return undefined;
  }

  private expect(ch: string): void {
    if (this.peek() !== ch) throw new PatternSyntaxError(`expected '${ch}' at ${this.pos}`);
    this.pos++;
  }

  private atom(): Node {
    const c = this.peek();
    if (c === '(') return this.group();
    if (c === '.') {
      this.pos++;
      return { t: 'char', pred: nativeCharPredicate('.') };
    }
    if (c === '[') return { t: 'char', pred: nativeCharPredicate(this.classSource()) };
    if (c === '\\') return this.escape();
    const cp = this.src.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return { t: 'char', pred: literalPredicate(cp) };
  }

  private group(): Node {
    this.pos++; // (
    let capture: number | null = null;
    if (this.src.startsWith('?:', this.pos)) {
      this.pos += 2;
    } else if (this.src.startsWith('?<', this.pos)) {
      const close = this.src.indexOf('>', this.pos);
      if (close < 0) throw new PatternSyntaxError('unterminated group name');
      capture = ++this.groupCount;
      this.groupNames.set(this.src.slice(this.pos + 2, close), capture);
      this.pos = close + 1;
    } else if (this.peek() === '?') {
      throw new PatternSyntaxError(`unsupported group syntax at ${this.pos - 1}`);
    } else {
      capture = ++this.groupCount;
    }
    const body = this.alternation();
    this.expect(')');
    return { t: 'group', capture, body };
  }

  /** The source of a bracket class, `[...]`, handed whole to the native engine. */
  private classSource(): string {
    const start = this.pos;
    this.pos++; // [
    while (this.pos < this.src.length && this.peek() !== ']') {
      this.pos += this.peek() === '\\' ? 2 : 1;
    }
    this.expect(']');
    return this.src.slice(start, this.pos);
  }

  private escape(): Node {
    const start = this.pos;
    const c = this.peek(1);
    if (c === undefined) throw new PatternSyntaxError('pattern ends with a backslash');
    if (/[1-9]/.test(c)) {
      let end = this.pos + 1;
      while (end < this.src.length && /[0-9]/.test(this.src[end])) end++;
      const ref = Number(this.src.slice(this.pos + 1, end));
      this.pos = end;
      return { t: 'backref', ref };
    }
    if (c === 'k' && this.peek(2) === '<') {
      const close = this.src.indexOf('>', this.pos);
      if (close < 0) throw new PatternSyntaxError('unterminated group name reference');
      const ref = this.src.slice(this.pos + 3, close);
      this.pos = close + 1;
      return { t: 'backref', ref };
    }
    if ((c === 'p' || c === 'P') && this.peek(2) === '{') {
      this.pos = this.closingBrace(this.pos + 3);
    } else if (c === 'u' && this.peek(2) === '{') {
      this.pos = this.closingBrace(this.pos + 3);
    } else if (c === 'u') {
      this.pos += 6;
      // A surrogate pair written as two \u escapes is one character in `u` mode.
      const lead = parseInt(this.src.slice(start + 2, start + 6), 16);
      if (lead >= 0xd800 && lead <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(this.src.slice(this.pos))) {
        this.pos += 6;
      }
    } else if (c === 'x') {
      this.pos += 4;
    } else if (c === 'c') {
      this.pos += 3;
    } else {
      this.pos += 2;
    }
    return { t: 'char', pred: nativeCharPredicate(this.src.slice(start, this.pos)) };
  }

  private closingBrace(from: number): number {
    const close = this.src.indexOf('}', from);
    if (close < 0) throw new PatternSyntaxError('unterminated escape');
    return close + 1;
  }

  private quantified(body: Node): Node {
    let min: number;
    let max: number;
    const c = this.peek();
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos));
      if (!m) throw new PatternSyntaxError(`malformed quantifier at ${this.pos}`);
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      this.pos += m[0].length - 1;
    } else {
      return body;
    }
    this.pos++;
    let greedy = true;
    if (this.peek() === '?') {
      greedy = false;
      this.pos++;
    }
    return { t: 'repeat', body, min, max, greedy };
  }
}

function nullable(node: Node): boolean {
  switch (node.t) {
    case 'char':
      return false;
    case 'seq':
      return node.items.every(nullable);
    case 'alt':
      return node.options.some(nullable);
    case 'group':
      return nullable(node.body);
    case 'repeat':
      return node.min === 0 || nullable(node.body);
    default:
      return true;
  }
}

class Compiler {
  private insts: Inst[] = [];

  /**
   * @param stateSize the state array's size so far: capture slots come first, then one
   *   loop-guard register per nullable unbounded loop, allocated as the compiler meets them.
   */
  constructor(
    private readonly groupNames: Map<string, number>,
    public stateSize: number,
  ) {}

  program(root: Node): Program {
    this.emitNode(root);
    this.emit({ op: 'match' });
    return { insts: this.insts };
  }

  private emit(inst: Inst): number {
    if (this.insts.length >= MAX_PROGRAM_SIZE) {
      throw new PatternSyntaxError('pattern is too large to check safely');
    }
    this.insts.push(inst);
    return this.insts.length - 1;
  }

  private emitNode(node: Node): void {
    switch (node.t) {
      case 'char':
        this.emit({ op: 'char', pred: node.pred });
        return;
      case 'seq':
        node.items.forEach((item) => this.emitNode(item));
        return;
      case 'alt': {
        const jumpsToEnd: Array<{ op: 'jmp'; to: number }> = [];
        node.options.forEach((option, i) => {
          if (i < node.options.length - 1) {
            const split = { op: 'split' as const, prefer: 0, other: 0 };
            this.emit(split);
            split.prefer = this.insts.length;
            this.emitNode(option);
            const jmp = { op: 'jmp' as const, to: 0 };
            this.emit(jmp);
            jumpsToEnd.push(jmp);
            split.other = this.insts.length;
          } else {
            this.emitNode(option);
          }
        });
        jumpsToEnd.forEach((jmp) => (jmp.to = this.insts.length));
        return;
      }
      case 'group':
        if (node.capture === null) {
          this.emitNode(node.body);
        } else {
          this.emit({ op: 'save', slot: node.capture * 2 });
          this.emitNode(node.body);
          this.emit({ op: 'save', slot: node.capture * 2 + 1 });
        }
        return;
      case 'repeat':
        this.emitRepeat(node);
        return;
      case 'assert':
        this.emit({ op: 'assert', kind: node.kind });
        return;
      case 'backref': {
        const group = typeof node.ref === 'number' ? node.ref : this.groupNames.get(node.ref);
        if (group === undefined) throw new PatternSyntaxError(`unknown group '${String(node.ref)}'`);
        this.emit({ op: 'backref', group });
        return;
      }
      case 'look': {
        const sub = new Compiler(this.groupNames, this.stateSize);
        const prog = sub.program(node.body);
        this.stateSize = sub.stateSize;
        this.emit({ op: 'look', behind: node.behind, negate: node.negate, prog });
        return;
      }
    }
  }

  private emitRepeat(node: Extract<Node, { t: 'repeat' }>): void {
    for (let i = 0; i < node.min; i++) this.emitNode(node.body);
    const split = (): { op: 'split'; prefer: number; other: number } => {
      const inst = { op: 'split' as const, prefer: 0, other: 0 };
      this.emit(inst);
      return inst;
    };
    // Continue into the body (`into`) or leave it (`out`), in the order greediness prefers.
    const wire = (inst: { prefer: number; other: number }, into: number, out: number): void => {
      [inst.prefer, inst.other] = node.greedy ? [into, out] : [out, into];
    };
    if (node.max === Infinity) {
      const loop = this.insts.length;
      const s = split();
      const bodyStart = this.insts.length;
      const guard = nullable(node.body);
      const index = guard ? this.stateSize++ : -1;
      if (guard) this.emit({ op: 'mark', index });
      this.emitNode(node.body);
      if (guard) this.emit({ op: 'progress', index });
      this.emit({ op: 'jmp', to: loop });
      wire(s, bodyStart, this.insts.length);
      return;
    }
    const optionalSplits: Array<{ prefer: number; other: number; into: number }> = [];
    for (let i = node.min; i < node.max; i++) {
      const s = split();
      optionalSplits.push(Object.assign(s, { into: this.insts.length }));
      this.emitNode(node.body);
    }
    optionalSplits.forEach((s) => wire(s, s.into, this.insts.length));
  }
}

class TooComplex extends Error {}

function isWordChar(cp: number | undefined): boolean {
  return (
    cp !== undefined &&
    ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f)
  );
}

interface Budget {
  steps: number;
}

/**
 * Runs `prog` from `start`. Backtracking points are three numbers on a stack; capture and
 * loop-guard changes go on a trail and are undone on backtrack, so a choice point costs
 * O(1) memory however many groups the pattern has.
 */
function run(
  prog: Program,
  input: readonly number[],
  start: number,
  state: number[],
  budget: Budget,
  endAt?: number,
): boolean {
  const insts = prog.insts;
  const stack: number[] = [];
  const trail: number[] = [];
  const set = (index: number, value: number): void => {
    trail.push(index, state[index]);
    state[index] = value;
  };
  let pc = 0;
  let pos = start;
  for (;;) {
    if (--budget.steps < 0) throw new TooComplex();
    const inst = insts[pc];
    let ok = true;
    switch (inst.op) {
      case 'char':
        if (pos < input.length && inst.pred(input[pos])) {
          pos++;
          pc++;
        } else ok = false;
        break;
      case 'split':
        stack.push(inst.other, pos, trail.length);
        pc = inst.prefer;
        break;
      case 'jmp':
        pc = inst.to;
        break;
      case 'save':
        set(inst.slot, pos);
        pc++;
        break;
      case 'mark':
        set(inst.index, pos);
        pc++;
        break;
      case 'progress':
        // An iteration that consumed nothing fails, as ECMAScript's empty check does.
        if (state[inst.index] === pos) ok = false;
        else pc++;
        break;
      case 'assert': {
        const k = inst.kind;
        if (k === 'start') ok = pos === 0;
        else if (k === 'end') ok = pos === input.length;
        else {
          const boundary = isWordChar(input[pos - 1]) !== isWordChar(input[pos]);
          ok = k === 'word' ? boundary : !boundary;
        }
        if (ok) pc++;
        break;
      }
      case 'backref': {
        const s = state[inst.group * 2];
        const e = state[inst.group * 2 + 1];
        if (s >= 0 && e >= s) {
          const len = e - s;
          budget.steps -= len;
          for (let i = 0; i < len && ok; i++) ok = input[pos + i] === input[s + i];
          if (ok) pos += len;
        }
        if (ok) pc++;
        break;
      }
      case 'look': {
        const sub = state.slice();
        let found = false;
        if (inst.behind) {
          for (let from = pos; from >= 0 && !found; from--) {
            const attempt = state.slice();
            if (run(inst.prog, input, from, attempt, budget, pos)) {
              found = true;
              sub.splice(0, sub.length, ...attempt);
            }
          }
        } else {
          found = run(inst.prog, input, pos, sub, budget);
        }
        ok = found !== inst.negate;
        if (ok && found && !inst.negate) {
          sub.forEach((value, index) => {
            if (state[index] !== value) set(index, value);
          });
        }
        if (ok) pc++;
        break;
      }
      case 'match':
        if (endAt === undefined || pos === endAt) return true;
        ok = false;
        break;
    }
    if (!ok) {
      if (stack.length === 0) return false;
      const trailLength = stack.pop()!;
      pos = stack.pop()!;
      pc = stack.pop()!;
      while (trail.length > trailLength) {
        const value = trail.pop()!;
        state[trail.pop()!] = value;
      }
    }
  }
}

/**
 * Compiles `source` as an ECMAScript `u`-mode pattern. Throws PatternSyntaxError for a
 * pattern that is not valid ECMAScript, or one this matcher cannot evaluate safely.
 */
export function compileBoundedPattern(source: string, stepBudget = DEFAULT_STEP_BUDGET): BoundedPattern {
  try {
    new RegExp(source, 'u');
  } catch (e) {
    throw new PatternSyntaxError((e as Error).message.replace(/^Invalid regular expression: /, ''));
  }
  const parser = new Parser(source);
  const root = parser.parse();
  const compiler = new Compiler(parser.groupNames, (parser.groupCount + 1) * 2);
  const prog = compiler.program(root);
  const stateSize = compiler.stateSize;
  const anchored = prog.insts[0]?.op === 'assert' && prog.insts[0].kind === 'start';
  return {
    source,
    test(text: string): PatternOutcome {
      const input = Array.from(text, (ch) => ch.codePointAt(0)!);
      const budget: Budget = { steps: stepBudget };
      try {
        const last = anchored ? 0 : input.length;
        for (let start = 0; start <= last; start++) {
          const state = new Array<number>(stateSize).fill(-1);
          if (run(prog, input, start, state, budget)) return 'match';
        }
        return 'no-match';
      } catch (e) {
        if (e instanceof TooComplex) return 'too-complex';
        throw e;
      }
    },
  };
}
