/**
 * Parses an MCP `requestedSchema` into the question model.
 *
 * Accepts exactly the subset MCP 2025-06-18 / 2025-11-25 allow (a flat object of
 * primitives, the three enum spellings, multi-select arrays), plus what ACP v1 adds to it
 * (`pattern` on strings, `description` on options). Unknown annotation keywords are
 * ignored. A JSON Schema keyword that would constrain answers in a way we do not check is
 * refused, since the person would be told an answer is fine that the server then rejects.
 * Every problem is reported with its path, so the server gets one precise -32602.
 */
import {
  type BooleanQuestion,
  type FormModel,
  type MultiSelectQuestion,
  type NumberQuestion,
  type Question,
  type SelectOption,
  type SingleSelectQuestion,
  TEXT_FORMATS,
  type TextFormat,
  type TextQuestion,
} from './model';
import { LIMITS } from './limits';
import { checkPattern } from './pattern';
import { schemaKey } from './schema-cache';
import { looksSecret } from './secret-hint';
import { checkValue, defaultOf } from './validation';

export interface SchemaProblem {
  /** Where, as a dotted path from the schema's root: `properties.address`. */
  readonly path: string;
  readonly message: string;
}

export type SchemaParseResult =
  | { readonly ok: true; readonly form: FormModel }
  | { readonly ok: false; readonly problems: readonly SchemaProblem[] };

export class InvalidSchemaError extends Error {
  constructor(readonly problems: readonly SchemaProblem[]) {
    super(describeProblems(problems));
    this.name = 'InvalidSchemaError';
  }
}

export function describeProblems(problems: readonly SchemaProblem[]): string {
  return problems.map((p) => `${p.path}: ${p.message}`).join('; ');
}

/**
 * Keywords of JSON Schema 2020-12 that constrain which instances are valid. Any of these
 * outside the elicitation subset is refused; every other unknown keyword is an annotation.
 */
const VALIDATION_KEYWORDS = new Set([
  '$ref', '$dynamicRef', '$recursiveRef', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else',
  'dependentSchemas', 'dependentRequired', 'dependencies', 'prefixItems', 'items', 'additionalItems',
  'contains', 'minContains', 'maxContains', 'properties', 'patternProperties', 'additionalProperties',
  'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'type', 'enum', 'const', 'multipleOf',
  'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern',
  'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'required', 'format',
  'contentEncoding', 'contentMediaType', 'contentSchema',
]);

const ALLOWED_BY_TYPE: Record<string, ReadonlySet<string>> = {
  string: new Set(['type', 'minLength', 'maxLength', 'format', 'pattern', 'enum', 'oneOf']),
  number: new Set(['type', 'minimum', 'maximum']),
  integer: new Set(['type', 'minimum', 'maximum']),
  boolean: new Set(['type']),
  array: new Set(['type', 'items', 'minItems', 'maxItems', 'uniqueItems']),
};

const ROOT_ALLOWED = new Set(['type', 'properties', 'required', 'additionalProperties']);

type Json = unknown;

function isRecord(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: Json): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** `overLimit(150, 100, 'field', 'in one form')`: a problem text that names the limit. */
export function overLimit(actual: number, limit: number, unit: string, where: string): string {
  const count = (n: number): string => `${n.toLocaleString('en-US')} ${unit}${n === 1 ? '' : 's'}`;
  return `has ${count(actual)}, over the limit of ${count(limit)} ${where}`;
}

/** What one schema's reading shares: its problems, and what its patterns have used of their budget. */
interface ParseContext {
  readonly problems: SchemaProblem[];
  patternProgram: number;
}

/** Collects problems while reading one schema node. */
class Reader {
  private readonly problems: SchemaProblem[];

  constructor(
    readonly ctx: ParseContext,
    readonly path: string,
    readonly node: Record<string, Json>,
  ) {
    this.problems = ctx.problems;
  }

  child(key: string, node: Record<string, Json>): Reader {
    return new Reader(this.ctx, `${this.path}.${key}`, node);
  }

  problem(message: string, key?: string): void {
    this.problems.push({ path: key === undefined ? this.path : `${this.path}.${key}`, message });
  }

  refuseUnsupported(allowed: ReadonlySet<string>, kindName: string): void {
    for (const key of Object.keys(this.node)) {
      if (VALIDATION_KEYWORDS.has(key) && !allowed.has(key)) {
        this.problem(`'${key}' is not allowed on ${kindName} in elicitation schemas`, key);
      }
    }
  }

  text(key: string): string | undefined {
    const value = this.node[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      this.problem(`must be a string, not ${show(value)}`, key);
      return undefined;
    }
    return value;
  }

  count(key: string): number | undefined {
    const value = this.node[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      this.problem(`must be a whole number of at least 0, not ${show(value)}`, key);
      return undefined;
    }
    return value;
  }

  finite(key: string): number | undefined {
    const value = this.node[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.problem(`must be a number, not ${show(value)}`, key);
      return undefined;
    }
    return value;
  }

  range(minKey: string, maxKey: string, min: number | undefined, max: number | undefined): void {
    if (min !== undefined && max !== undefined && min > max) {
      this.problem(`${minKey} ${min} is greater than ${maxKey} ${max}, so no answer could be valid`, minKey);
    }
  }
}

function parseOptionList(reader: Reader, path: string, list: Json): SelectOption[] | undefined {
  if (!Array.isArray(list) || list.length === 0) {
    reader.problem('must be a non-empty array of options', path);
    return undefined;
  }
  if (list.length > LIMITS.options) {
    reader.problem(overLimit(list.length, LIMITS.options, 'option', 'for one field'), path);
    return undefined;
  }
  const options: SelectOption[] = [];
  const seen = new Set<string>();
  list.forEach((entry, i) => {
    const at = `${path}.${i}`;
    if (!isRecord(entry)) {
      reader.problem(`must be an object {const, title}, not ${show(entry)}`, at);
      return;
    }
    const { const: value, title, description } = entry;
    if (typeof value !== 'string') {
      reader.problem(`const must be a string, not ${show(value)}`, at);
      return;
    }
    if (title !== undefined && typeof title !== 'string') {
      reader.problem(`title must be a string, not ${show(title)}`, at);
      return;
    }
    if (description !== undefined && typeof description !== 'string') {
      reader.problem(`description must be a string, not ${show(description)}`, at);
      return;
    }
    for (const extra of Object.keys(entry)) {
      if (VALIDATION_KEYWORDS.has(extra) && extra !== 'const') {
        reader.problem(`'${extra}' is not allowed in an option`, `${at}.${extra}`);
      }
    }
    if (seen.has(value)) {
      reader.problem(`the value ${show(value)} is listed twice`, at);
      return;
    }
    seen.add(value);
    options.push({ value, label: title ?? value, ...(description !== undefined && { description }) });
  });
  return options;
}

function parseEnum(reader: Reader): SelectOption[] | undefined {
  const values = reader.node.enum;
  if (!Array.isArray(values) || values.length === 0) {
    reader.problem('must be a non-empty array of strings', 'enum');
    return undefined;
  }
  if (values.length > LIMITS.options) {
    reader.problem(overLimit(values.length, LIMITS.options, 'option', 'for one field'), 'enum');
    return undefined;
  }
  const names = reader.node.enumNames;
  if (names !== undefined && (!Array.isArray(names) || names.length !== values.length)) {
    reader.problem(`must be an array with one name per enum value (${values.length})`, 'enumNames');
    return undefined;
  }
  const options: SelectOption[] = [];
  const seen = new Set<string>();
  values.forEach((value, i) => {
    if (typeof value !== 'string') {
      reader.problem(`must be a string, not ${show(value)}`, `enum.${i}`);
      return;
    }
    if (seen.has(value)) {
      reader.problem(`the value ${show(value)} is listed twice`, `enum.${i}`);
      return;
    }
    seen.add(value);
    const name = names?.[i];
    if (name !== undefined && typeof name !== 'string') {
      reader.problem(`must be a string, not ${show(name)}`, `enumNames.${i}`);
      return;
    }
    options.push({ value, label: name ?? value });
  });
  return options;
}

interface Common {
  id: string;
  title: string;
  description?: string;
  required: boolean;
  looksSecret: boolean;
}

function parseString(reader: Reader, common: Common): TextQuestion | SingleSelectQuestion | undefined {
  const node = reader.node;
  reader.refuseUnsupported(ALLOWED_BY_TYPE.string, 'strings');
  const isEnum = node.enum !== undefined || node.oneOf !== undefined;
  if (isEnum) {
    if (node.enum !== undefined && node.oneOf !== undefined) {
      reader.problem('use either enum or oneOf, not both');
      return undefined;
    }
    for (const key of ['minLength', 'maxLength', 'format', 'pattern']) {
      if (node[key] !== undefined) reader.problem(`'${key}' does not apply to a choice of options`, key);
    }
    const options = node.oneOf !== undefined ? parseOptionList(reader, 'oneOf', node.oneOf) : parseEnum(reader);
    if (!options) return undefined;
    const question: SingleSelectQuestion = { ...common, kind: 'single-select', options };
    const dflt = node.default;
    if (dflt === undefined) return question;
    if (typeof dflt !== 'string' || !options.some((o) => o.value === dflt)) {
      reader.problem(`must be one of the options, not ${show(dflt)}`, 'default');
      return undefined;
    }
    return { ...question, defaultValue: dflt };
  }
  if (node.enumNames !== undefined) reader.problem('enumNames needs an enum', 'enumNames');

  const minLength = reader.count('minLength');
  const maxLength = reader.count('maxLength');
  reader.range('minLength', 'maxLength', minLength, maxLength);
  let format: TextFormat | undefined;
  if (node.format !== undefined) {
    if (TEXT_FORMATS.includes(node.format as TextFormat)) format = node.format as TextFormat;
    else reader.problem(`${show(node.format)} is not one of ${TEXT_FORMATS.join(', ')}`, 'format');
  }
  const pattern = reader.text('pattern');
  if (pattern !== undefined) {
    const check = checkPattern(pattern);
    if (!check.ok) reader.problem(check.message, 'pattern');
    else if ((reader.ctx.patternProgram += check.size) > LIMITS.schemaPatternProgram) {
      reader.problem(
        `brings the schema's patterns to about ${reader.ctx.patternProgram.toLocaleString('en-US')} instructions, over the limit of ${LIMITS.schemaPatternProgram.toLocaleString('en-US')} for all patterns of one schema`,
        'pattern',
      );
    }
  }
  const question: TextQuestion = {
    ...common,
    kind: 'text',
    ...(format && { format }),
    ...(minLength !== undefined && { minLength }),
    ...(maxLength !== undefined && { maxLength }),
    ...(pattern !== undefined && { pattern }),
  };
  if (node.default !== undefined) {
    if (typeof node.default !== 'string') {
      reader.problem(`must be a string, not ${show(node.default)}`, 'default');
      return undefined;
    }
    return { ...question, defaultValue: node.default };
  }
  return question;
}

function parseNumber(reader: Reader, common: Common, kind: 'number' | 'integer'): NumberQuestion | undefined {
  reader.refuseUnsupported(ALLOWED_BY_TYPE[kind], kind === 'integer' ? 'integers' : 'numbers');
  const minimum = reader.finite('minimum');
  const maximum = reader.finite('maximum');
  reader.range('minimum', 'maximum', minimum, maximum);
  const question: NumberQuestion = {
    ...common,
    kind,
    ...(minimum !== undefined && { minimum }),
    ...(maximum !== undefined && { maximum }),
  };
  const dflt = reader.node.default;
  if (dflt === undefined) return question;
  if (typeof dflt !== 'number' || !Number.isFinite(dflt) || (kind === 'integer' && !Number.isInteger(dflt))) {
    reader.problem(`must be ${kind === 'integer' ? 'a whole number' : 'a number'}, not ${show(dflt)}`, 'default');
    return undefined;
  }
  return { ...question, defaultValue: dflt };
}

function parseBoolean(reader: Reader, common: Common): BooleanQuestion | undefined {
  reader.refuseUnsupported(ALLOWED_BY_TYPE.boolean, 'booleans');
  const dflt = reader.node.default;
  if (dflt === undefined) return { ...common, kind: 'boolean' };
  if (typeof dflt !== 'boolean') {
    reader.problem(`must be true or false, not ${show(dflt)}`, 'default');
    return undefined;
  }
  return { ...common, kind: 'boolean', defaultValue: dflt };
}

function parseArray(reader: Reader, common: Common): MultiSelectQuestion | undefined {
  const node = reader.node;
  reader.refuseUnsupported(ALLOWED_BY_TYPE.array, 'multi-select arrays');
  if (node.uniqueItems !== undefined && typeof node.uniqueItems !== 'boolean') {
    reader.problem(`must be true or false, not ${show(node.uniqueItems)}`, 'uniqueItems');
  }
  const items = node.items;
  if (!isRecord(items)) {
    reader.problem('must be an object listing the options (items.enum or items.anyOf); arrays of other things are not allowed in elicitation schemas', 'items');
    return undefined;
  }
  const itemReader = reader.child('items', items);
  if (items.type !== undefined && items.type !== 'string') {
    itemReader.problem(`must be "string": multi-select options are strings, not ${show(items.type)}`, 'type');
    return undefined;
  }
  itemReader.refuseUnsupported(new Set(['type', 'enum', 'anyOf', 'oneOf']), 'multi-select items');
  const listKeys = ['enum', 'anyOf', 'oneOf'].filter((k) => items[k] !== undefined);
  if (listKeys.length !== 1) {
    itemReader.problem(
      listKeys.length === 0
        ? 'must list the options with enum or anyOf; free-form arrays are not allowed in elicitation schemas'
        : `use one of ${listKeys.join(', ')}, not several`,
    );
    return undefined;
  }
  const options =
    listKeys[0] === 'enum' ? parseEnum(itemReader) : parseOptionList(itemReader, listKeys[0], items[listKeys[0]]);
  if (!options) return undefined;
  const minItems = reader.count('minItems');
  const maxItems = reader.count('maxItems');
  reader.range('minItems', 'maxItems', minItems, maxItems);
  if (minItems !== undefined && minItems > options.length) {
    reader.problem(`asks for at least ${minItems} choices but there are only ${options.length} options`, 'minItems');
  }
  const question: MultiSelectQuestion = {
    ...common,
    kind: 'multi-select',
    options,
    ...(minItems !== undefined && { minItems }),
    ...(maxItems !== undefined && { maxItems }),
  };
  const dflt = node.default;
  if (dflt === undefined) return question;
  const values = new Set(options.map((o) => o.value));
  if (
    !Array.isArray(dflt) ||
    !dflt.every((v) => typeof v === 'string' && values.has(v)) ||
    new Set(dflt).size !== dflt.length
  ) {
    reader.problem(`must be a list of distinct option values, not ${show(dflt)}`, 'default');
    return undefined;
  }
  return { ...question, defaultValue: dflt as string[] };
}

function parseProperty(ctx: ParseContext, key: string, node: Json, required: boolean): Question | undefined {
  const path = `properties.${key}`;
  if (!isRecord(node)) {
    ctx.problems.push({ path, message: `must be a schema object, not ${show(node)}` });
    return undefined;
  }
  const reader = new Reader(ctx, path, node);
  const title = reader.text('title');
  const description = reader.text('description');
  const common: Common = {
    id: key,
    title: title ?? key,
    ...(description !== undefined && { description }),
    required,
    looksSecret: looksSecret({ key, title, writeOnly: node.writeOnly, format: node.format }),
  };
  const type = node.type;
  switch (type) {
    case 'string':
      return parseString(reader, common);
    case 'number':
    case 'integer':
      return parseNumber(reader, common, type);
    case 'boolean':
      return parseBoolean(reader, common);
    case 'array':
      return parseArray(reader, common);
    case 'object':
      reader.problem('nested objects are not allowed in elicitation schemas');
      return undefined;
    case undefined:
      if (node.enum !== undefined || node.oneOf !== undefined) {
        // An enum without `type` is unambiguous when every value is a string.
        return parseString(reader, common);
      }
      reader.problem('needs a type: string, number, integer, boolean or array');
      return undefined;
    default:
      reader.problem(
        Array.isArray(type)
          ? `must have one type, not ${show(type)}`
          : `type ${show(type)} is not allowed in elicitation schemas (string, number, integer, boolean or array)`,
        'type',
      );
      return undefined;
  }
}

/** Parses a requested schema; never throws, whatever the input. */
export function parseRequestedSchema(schema: Json): SchemaParseResult {
  if (!isRecord(schema)) {
    return { ok: false, problems: [{ path: 'requestedSchema', message: `must be an object schema, not ${show(schema)}` }] };
  }
  // Limits first, so an oversized schema costs no more than its measuring.
  const chars = schemaKey(schema).length;
  if (chars > LIMITS.schemaChars) {
    return { ok: false, problems: [{ path: 'requestedSchema', message: overLimit(chars, LIMITS.schemaChars, 'character', 'for a schema (as JSON)') }] };
  }
  const ctx: ParseContext = { problems: [], patternProgram: 0 };
  const problems = ctx.problems;
  const root = new Reader(ctx, 'requestedSchema', schema);
  if (schema.type !== 'object') {
    root.problem(`must be "object", not ${show(schema.type)}`, 'type');
  }
  for (const key of Object.keys(schema)) {
    if (VALIDATION_KEYWORDS.has(key) && !ROOT_ALLOWED.has(key)) {
      problems.push({ path: key, message: `'${key}' is not allowed at the top of an elicitation schema` });
    }
  }
  if (schema.additionalProperties !== undefined && typeof schema.additionalProperties !== 'boolean') {
    problems.push({ path: 'additionalProperties', message: 'may only be true or false in elicitation schemas' });
  }
  const properties = schema.properties ?? {};
  if (!isRecord(properties)) {
    problems.push({ path: 'properties', message: `must be an object, not ${show(properties)}` });
    return { ok: false, problems };
  }
  const count = Object.keys(properties).length;
  if (count > LIMITS.properties) {
    problems.push({ path: 'properties', message: overLimit(count, LIMITS.properties, 'field', 'in one form') });
    return { ok: false, problems };
  }
  const required = new Set<string>();
  if (schema.required !== undefined) {
    if (!Array.isArray(schema.required)) {
      problems.push({ path: 'required', message: `must be an array of property names, not ${show(schema.required)}` });
    } else {
      schema.required.forEach((name, i) => {
        if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(properties, name)) {
          problems.push({ path: `required.${i}`, message: `${show(name)} is not one of the properties` });
        } else {
          required.add(name);
        }
      });
    }
  }
  const questions: Question[] = [];
  for (const [key, node] of Object.entries(properties)) {
    let question = parseProperty(ctx, key, node, required.has(key));
    if (!question) continue;
    // A default that breaks the field's own rules would be prefilled as if it were fine. Its
    // pattern is left to the answer's check: reading a schema compiles no pattern.
    const dflt = defaultOf(question);
    let message = dflt === undefined ? undefined : checkValue({ ...question, pattern: undefined } as Question, dflt);
    if (message !== undefined && dflt === '' && question.kind === 'text') {
      // `default: ""` is how many servers write "no default": read it so, nothing is at risk.
      const { defaultValue: _empty, ...withoutDefault } = question;
      question = withoutDefault;
      message = undefined;
    }
    if (message !== undefined) {
      problems.push({ path: `properties.${key}.default`, message: `${show(dflt)} breaks the field's own rules (${message})` });
      continue;
    }
    questions.push(question);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, form: { questions } };
}

/** Like parseRequestedSchema, but throws InvalidSchemaError. */
export function parseRequestedSchemaOrThrow(schema: Json): FormModel {
  const result = parseRequestedSchema(schema);
  if (!result.ok) throw new InvalidSchemaError(result.problems);
  return result.form;
}
