/**
 * One field of a requested schema as a question: text (with format, length and pattern),
 * number or integer, boolean, a single select in any of its three spellings (`enum`,
 * `oneOf` of titled consts, legacy `enumNames`) and a multi-select array; each checked
 * against what the elicitation subset allows for its type.
 */
import {
  type BooleanQuestion,
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
import { ALLOWED_BY_TYPE, isRecord, type Json, overLimit, type ParseContext, Reader, show, VALIDATION_KEYWORDS } from './schema-reader';
import { looksSecret } from './secret-hint';

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

export function parseProperty(ctx: ParseContext, key: string, node: Json, required: boolean): Question | undefined {
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
