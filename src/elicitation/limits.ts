/**
 * What one question may weigh. Everything a server sends is read on the extension host's
 * thread, so each limit bounds the work one question can cost; a question over a limit is
 * refused (-32602 naming the limit and where), never trimmed. The figures are far above
 * what real servers ask: the reference "everything" server's largest form has 13 fields,
 * the PHP SDK's examples 3 fields, 6 options and no pattern, and a long country or time
 * zone list has a few hundred options.
 */
export const LIMITS = {
  /** The requested schema as JSON text, in characters. */
  schemaChars: 65_536,
  /** Fields in one form. */
  properties: 100,
  /** Options of one choice (single or multi-select). */
  options: 1_000,
  /** The question's message (form and URL mode), in characters. */
  messageChars: 10_000,
  /** One `pattern`'s source, in characters. */
  patternChars: 2_000,
  /** One pattern's compiled program, in RE2 instructions (`[a-z]{1,1000}` is about 2,000). */
  patternProgram: 2_500,
  /** All patterns of one schema together, in RE2 instructions: bounds what the first checks compile. */
  schemaPatternProgram: 10_000,
  /**
   * Work one pattern check may do: answer length times program size. A 100 kB answer
   * against a pattern of up to 100 instructions (most are under 30) is checked; past this,
   * the answer is refused as too complex to check rather than the thread being held.
   */
  patternWork: 10_000_000,
} as const;

export type LimitName = keyof typeof LIMITS;
