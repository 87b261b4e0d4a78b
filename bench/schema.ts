/**
 * The cost of reading a schema on the extension host's thread (issue 10: one 12 kB schema
 * held it for 1.6 s, repeatable without limit).
 *
 *   worst    the worst schema the limits let through (every field, the pattern program, the
 *            characters all at their limit), parsed cold; target under 5 ms
 *   hostile  the schema (fields with patterns like (?:[a-z]{1,999}){1,49}) through the
 *            broker: with its 200 fields (refused by the field count), and cut to the 100
 *            fields allowed (every pattern read and refused); then refused again from the cache
 *
 * Baseline, in the same run: JSON.parse of the same text, the cost of reading those bytes at
 * all, which the SDK pays for every message before we see it.
 */
import { performance } from 'node:perf_hooks';
import type { ElicitContext } from '../src/elicitation/broker';
import { LIMITS } from '../src/elicitation/limits';
import { InvalidSchemaError, parseRequestedSchema } from '../src/elicitation/schema';
import { InputStore } from '../src/elicitation/store';
import { createBroker } from '../src/mcp/create-broker';
import { ScriptedPrompter } from '../test/support/scripted-prompter';
import { median, round } from './stats';

/** About 2,400 RE2 instructions: four of them come close to the 10,000 a schema may carry. */
const HEAVY_PATTERN = '(?:[a-z]{1,30}){1,30}(?:[a-z]{1,30}){1,9}';

/** Every limit reached or nearly: 100 fields, ~9,600 pattern instructions, ~65,000 characters. */
export function worstAcceptedSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 4; i++) {
    properties[`pattern_${i}`] = { type: 'string', title: `Pattern ${i}`, description: 'A pattern near the limit', pattern: HEAVY_PATTERN, minLength: 1, maxLength: 500 };
  }
  const choices: Array<Array<{ const: string; title: string }>> = [];
  for (let i = 4; i < LIMITS.properties; i++) {
    const options: Array<{ const: string; title: string }> = [];
    choices.push(options);
    properties[`choice_${i}`] = { type: 'string', title: `Choice ${i}`, oneOf: options, default: 'o0' };
  }
  const schema = { type: 'object', properties, required: Object.keys(properties) };
  // Options in turn to every choice field until the text reaches the limit.
  let chars = JSON.stringify(schema).length;
  for (let n = 0; ; n++) {
    const field = choices[n % choices.length];
    const option = { const: `o${field.length}`, title: `Option ${field.length}` };
    const adds = JSON.stringify(option).length + 1; // and a comma
    if (chars + adds > LIMITS.schemaChars) break;
    field.push(option);
    chars += adds;
  }
  const parsed = parseRequestedSchema(schema);
  if (!parsed.ok) throw new Error(`the "worst accepted" schema is refused: ${JSON.stringify(parsed.problems.slice(0, 3))}`);
  return schema;
}

/** The schema from issue 10 that held the host for 1.6 s per request (200 fields). */
export function hostileSchema(fields = 200): Record<string, unknown> {
  const properties = Object.fromEntries(Array.from({ length: fields }, (_, i) => [`f${i}`, { type: 'string', pattern: '(?:[a-z]{1,999}){1,49}' }]));
  return { type: 'object', properties };
}

/** Median milliseconds of `run` over fresh copies of `schema` (each message is a new object). */
function timed(schema: Record<string, unknown>, runs: number, run: (copy: Record<string, unknown>, text: string) => unknown): number {
  const text = JSON.stringify(schema);
  const copies = Array.from({ length: runs }, () => structuredClone(schema));
  for (let i = 0; i < 20; i++) run(structuredClone(schema), text); // warm the JIT, as a running host is
  const samples = copies.map((copy) => {
    const start = performance.now();
    run(copy, text);
    return performance.now() - start;
  });
  return median(samples);
}

export interface SchemaBench {
  readonly worstChars: number;
  readonly worstParseMs: number;
  readonly worstJsonParseMs: number;
  readonly hostile: readonly HostileFigures[];
}

export interface HostileFigures {
  readonly fields: number;
  readonly chars: number;
  readonly firstRefusalMs: number;
  readonly cachedRefusalMs: number;
  readonly jsonParseMs: number;
}

async function refusalMs(broker: ReturnType<typeof createBroker>, schema: Record<string, unknown>): Promise<number> {
  const ctx: ElicitContext = { source: { server: 'hostile' }, signal: new AbortController().signal, applyDefaults: false };
  const start = performance.now();
  try {
    await broker.elicit({ message: 'x', requestedSchema: schema }, ctx);
  } catch (e) {
    if (!(e instanceof InvalidSchemaError)) throw e;
    return performance.now() - start;
  }
  throw new Error('the hostile schema was accepted');
}

export async function benchSchema(runs = 200): Promise<SchemaBench> {
  const worst = worstAcceptedSchema();
  const worstParseMs = timed(worst, runs, (copy) => parseRequestedSchema(copy));
  const worstJsonParseMs = timed(worst, runs, (_, text) => JSON.parse(text));

  const hostile: HostileFigures[] = [];
  for (const fields of [200, LIMITS.properties]) {
    const schema = hostileSchema(fields);
    const firsts: number[] = [];
    const cached: number[] = [];
    for (let i = 0; i < runs; i++) {
      // A new broker each time: its first refusal parses, the next comes from its cache.
      const broker = createBroker({ store: new InputStore(), prompter: new ScriptedPrompter() });
      firsts.push(await refusalMs(broker, structuredClone(schema)));
      cached.push(await refusalMs(broker, structuredClone(schema)));
    }
    hostile.push({
      fields,
      chars: JSON.stringify(schema).length,
      firstRefusalMs: round(median(firsts)),
      cachedRefusalMs: round(median(cached)),
      jsonParseMs: round(timed(schema, runs, (_, text) => JSON.parse(text))),
    });
  }
  return { worstChars: JSON.stringify(worst).length, worstParseMs: round(worstParseMs), worstJsonParseMs: round(worstJsonParseMs), hostile };
}
