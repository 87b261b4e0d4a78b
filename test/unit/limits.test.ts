import { strict as assert } from 'node:assert';
import { type ElicitContext, TooManyRequestsError } from '../../src/elicitation/broker';
import { LIMITS } from '../../src/elicitation/limits';
import { InvalidSchemaError, parseRequestedSchema } from '../../src/elicitation/schema';
import { InputStore } from '../../src/elicitation/store';
import { createBroker } from '../../src/mcp/create-broker';
import { BOOK_RESTAURANT } from '../fixtures/schemas';
import { ScriptedPrompter, waitForAbort } from '../support/scripted-prompter';

function problems(schema: unknown): string[] {
  const result = parseRequestedSchema(schema);
  assert.equal(result.ok, false, 'expected the schema to be refused');
  return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`);
}

function form(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', properties };
}

function ctx(signal = new AbortController().signal): ElicitContext {
  return { source: { server: 'flood' }, signal, applyDefaults: false };
}

/** The worst pattern-heavy schema under the limits; the bench measures its parse. */
const HEAVY_PATTERN = '(?:[a-z]{1,30}){1,30}(?:[a-z]{1,30}){1,9}'; // about 2,400 instructions

describe('limits: a question over one is refused at once, naming the limit and where', () => {
  it('the schema as JSON', () => {
    const schema = form({ notes: { type: 'string', description: 'x'.repeat(LIMITS.schemaChars) } });
    const chars = JSON.stringify(schema).length.toLocaleString('en-US');
    assert.deepEqual(problems(schema), [`requestedSchema: has ${chars} characters, over the limit of 65,536 characters for a schema (as JSON)`]);
  });

  it('fields in one form', () => {
    const properties = Object.fromEntries(Array.from({ length: LIMITS.properties + 1 }, (_, i) => [`f${i}`, { type: 'boolean' }]));
    assert.deepEqual(problems(form(properties)), ['properties: has 101 fields, over the limit of 100 fields in one form']);
    delete properties.f0;
    assert.equal(parseRequestedSchema(form(properties)).ok, true);
  });

  it('options of one field, in each spelling', () => {
    const values = Array.from({ length: LIMITS.options + 1 }, (_, i) => `v${i}`);
    const over = 'has 1,001 options, over the limit of 1,000 options for one field';
    assert.deepEqual(problems(form({ a: { type: 'string', enum: values } })), [`properties.a.enum: ${over}`]);
    assert.deepEqual(problems(form({ a: { type: 'string', oneOf: values.map((v) => ({ const: v })) } })), [`properties.a.oneOf: ${over}`]);
    assert.deepEqual(problems(form({ a: { type: 'array', items: { anyOf: values.map((v) => ({ const: v })) } } })), [`properties.a.items.anyOf: ${over}`]);
    assert.equal(parseRequestedSchema(form({ a: { type: 'string', enum: values.slice(1) } })).ok, true);
  });

  it("one pattern's length and program, and all patterns of a schema together", () => {
    assert.match(problems(form({ a: { type: 'string', pattern: 'a'.repeat(LIMITS.patternChars + 1) } }))[0], /^properties\.a\.pattern: is 2,001 characters long, over the limit of 2,000 characters for a pattern$/);
    assert.match(problems(form({ a: { type: 'string', pattern: `${HEAVY_PATTERN}[a-z]{1,100}` } }))[0], /^properties\.a\.pattern: compiles to about .* instructions, over the limit of 2,500 instructions for a pattern$/);
    const five = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`p${i}`, { type: 'string', pattern: HEAVY_PATTERN }]));
    assert.deepEqual(problems(form(five)).map((p) => p.replace(/about [\d,]+/, 'about N')), [
      "properties.p4.pattern: brings the schema's patterns to about N instructions, over the limit of 10,000 for all patterns of one schema",
    ]);
    delete five.p4;
    assert.equal(parseRequestedSchema(form(five)).ok, true);
  });

  it('the message, in form and URL mode', async () => {
    const broker = createBroker({ store: new InputStore(), prompter: new ScriptedPrompter() });
    const message = 'm'.repeat(LIMITS.messageChars + 1);
    for (const params of [{ message, requestedSchema: BOOK_RESTAURANT }, { mode: 'url' as const, message, url: 'https://example.com/' }]) {
      await assert.rejects(broker.elicit(params, ctx()), (e: unknown) => {
        assert.ok(e instanceof InvalidSchemaError);
        assert.equal(e.message, 'message: has 10,001 characters, over the limit of 10,000 characters for a message');
        return true;
      });
    }
  });

  it('a flooding server is refused before its schema is read', async () => {
    const broker = createBroker({ store: new InputStore(), prompter: new ScriptedPrompter([], waitForAbort), maxOpenPerServer: 2 });
    const server = new AbortController();
    const pending = [broker.elicit({ message: 'a', requestedSchema: BOOK_RESTAURANT }, ctx(server.signal)), broker.elicit({ message: 'b', requestedSchema: BOOK_RESTAURANT }, ctx(server.signal))];
    let read = 0;
    const watched = {
      type: 'object',
      get properties(): unknown {
        read++;
        return { a: { type: 'string' } };
      },
    };
    await assert.rejects(broker.elicit({ message: 'c', requestedSchema: watched }, ctx(server.signal)), TooManyRequestsError);
    assert.equal(read, 0, 'the schema was read although the request was refused');
    server.abort();
    await Promise.all(pending);
  });

  it('a refused schema is refused again from the cache, not parsed again', async () => {
    const broker = createBroker({ store: new InputStore(), prompter: new ScriptedPrompter() });
    const bad = form({ a: { type: 'string', pattern: '(a)\\1' } });
    const refusals: InvalidSchemaError[] = [];
    for (let i = 0; i < 2; i++) {
      // A fresh copy each time, as every message from a server is.
      await assert.rejects(broker.elicit({ message: 'x', requestedSchema: structuredClone(bad) }, ctx()), (e: unknown) => {
        assert.ok(e instanceof InvalidSchemaError);
        refusals.push(e);
        return true;
      });
    }
    assert.match(refusals[1].message, /properties\.a\.pattern: cannot be checked safely: it uses a back-reference/);
    assert.equal(refusals[1].problems, refusals[0].problems, 'the second refusal should come from the cache');
  });

  it('an oversized schema is refused by its size each time, never kept (its text would be the cache key)', async () => {
    const broker = createBroker({ store: new InputStore(), prompter: new ScriptedPrompter() });
    const huge = form({ notes: { type: 'string', description: 'x'.repeat(10 * LIMITS.schemaChars) } });
    const refusals: InvalidSchemaError[] = [];
    for (let i = 0; i < 2; i++) {
      await assert.rejects(broker.elicit({ message: 'x', requestedSchema: structuredClone(huge) }, ctx()), (e: unknown) => {
        assert.ok(e instanceof InvalidSchemaError);
        refusals.push(e);
        return true;
      });
    }
    assert.match(refusals[1].message, /over the limit of 65,536 characters for a schema/);
    assert.notEqual(refusals[1].problems, refusals[0].problems, 'the oversized schema was kept in the cache');
  });
});
