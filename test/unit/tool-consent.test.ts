/**
 * Whether an extension may call a server's tools: asked once per extension and server,
 * the answer kept for the workspace (Allow and Deny, not a closed question), calls that
 * come while it is asked wait for the same answer, a destructive tool is confirmed on every
 * call, and Forget Saved Inputs lists each kept answer and forgets it.
 */
import { strict as assert } from 'node:assert';
import { checksFor, type ConsentDialogs, REFUSED_BY_PERSON, RefusedCallError, ToolConsents } from '../../src/mcp/tool-consent';
import { MementoFake } from '../support/memento';

type Choice = 'allow' | 'deny' | undefined;

/** The person, scripted: each question takes the next answer; `held` answers only when released. */
class Person implements ConsentDialogs {
  readonly asked: string[] = [];
  readonly confirmed: string[] = [];
  private release: ((choice: Choice) => void) | undefined;

  constructor(
    private readonly answers: Array<Choice | 'held'> = [],
    private readonly runs: boolean[] = [],
  ) {}

  askToAllow(extension: { name: string }, server: { name: string }): Promise<Choice> {
    this.asked.push(`${extension.name} → ${server.name}`);
    const answer = this.answers.shift();
    if (answer === 'held') return new Promise((resolve) => (this.release = resolve));
    return Promise.resolve(answer);
  }

  answer(choice: Choice): void {
    this.release?.(choice);
  }

  async confirmCall(extension: { name: string }, server: { name: string }, tool: { name: string }, args: Record<string, unknown>): Promise<boolean> {
    this.confirmed.push(`${extension.name} → ${server.name} · ${tool.name} ${JSON.stringify(args)}`);
    return this.runs.shift() ?? false;
  }
}

const probe = { id: 'tests.api-probe', name: 'API Probe' };
const other = { id: 'tests.other', name: 'Other' };
const fixture = { id: '/w/.vscode/mcp.json#fixture', name: 'fixture' };
const second = { id: '/w/.vscode/mcp.json#second', name: 'second' };
const userFixture = { id: 'user#fixture', name: 'fixture' };
const echo = { name: 'echo', destructive: false };
const clear = { name: 'clear_completed', title: 'Clear completed todos', destructive: true };

const refusal = (pattern: RegExp) => (e: unknown) => e instanceof RefusedCallError && e.code === REFUSED_BY_PERSON && pattern.test(e.message);

describe('extensions calling tools: the person\'s consent', () => {
  it('what a call needs: asked when nothing is kept, refused when denied, confirmed each time when destructive', () => {
    assert.deepEqual(checksFor(undefined, echo), { ask: true, refused: false, confirmEach: false });
    assert.deepEqual(checksFor(true, echo), { ask: false, refused: false, confirmEach: false });
    assert.deepEqual(checksFor(false, echo), { ask: false, refused: true, confirmEach: false });
    assert.deepEqual(checksFor(true, clear), { ask: false, refused: false, confirmEach: true });
    assert.deepEqual(checksFor(undefined, undefined), { ask: true, refused: false, confirmEach: false });
  });

  it('Allow is asked once per extension and server and kept for the workspace; another extension, another server, or a server of the same name elsewhere is asked anew', async () => {
    const memory = new MementoFake();
    const person = new Person(['allow', 'allow', 'allow', 'allow']);
    const consents = new ToolConsents(memory, person);
    await consents.admit(probe, fixture);
    await consents.admit(probe, fixture);
    await consents.admit({ id: 'TESTS.API-PROBE', name: 'API Probe' }, fixture);
    assert.deepEqual(person.asked, ['API Probe → fixture'], 'asked once (VS Code compares ids without case)');
    await consents.admit(other, fixture);
    await consents.admit(probe, second);
    await consents.admit(probe, userFixture);
    assert.deepEqual(person.asked, ['API Probe → fixture', 'Other → fixture', 'API Probe → second', 'API Probe → fixture']);
    // The next window of this workspace (a new object over the same memory) asks nothing.
    const again = new Person();
    await new ToolConsents(memory, again).admit(probe, fixture);
    assert.deepEqual(again.asked, []);
  });

  it('Deny is kept: this call and every later one are refused, naming the extension, the server and that the person denied it, without asking again', async () => {
    const person = new Person(['deny']);
    const consents = new ToolConsents(new MementoFake(), person);
    await assert.rejects(consents.admit(probe, fixture), refusal(/did not allow the extension "API Probe" to call the tools of the MCP server "fixture"/));
    await assert.rejects(consents.admit(probe, fixture), refusal(/person denied the extension "API Probe" the tools of the MCP server "fixture".*Forget Saved Inputs/));
    assert.equal(person.asked.length, 1);
  });

  it('a question closed without a choice refuses this call only: the next call asks again', async () => {
    const person = new Person([undefined, 'allow']);
    const consents = new ToolConsents(new MementoFake(), person);
    await assert.rejects(consents.admit(probe, fixture), refusal(/did not allow/));
    await consents.admit(probe, fixture);
    assert.equal(person.asked.length, 2);
  });

  it('a question that cannot be shown (VS Code refuses dialogs in extension tests) refuses the call, saying why, and keeps nothing', async () => {
    const memory = new MementoFake();
    const broken: ConsentDialogs = { askToAllow: () => Promise.reject(new Error('refused to show dialog in tests')), confirmCall: () => Promise.reject(new Error('refused to show dialog in tests')) };
    const consents = new ToolConsents(memory, broken);
    await assert.rejects(consents.admit(probe, fixture), refusal(/could not be asked whether the extension "API Probe" may call the tools of the MCP server "fixture" \(refused to show dialog in tests\)/));
    await assert.rejects(consents.confirm(probe, fixture, clear, {}), refusal(/declined/));
    assert.deepEqual(consents.forgettable(), []);
  });

  it('calls that come while the question is on screen wait for the same answer (one question, not one per call)', async () => {
    const person = new Person(['held']);
    const consents = new ToolConsents(new MementoFake(), person);
    const calls = [consents.admit(probe, fixture), consents.admit(probe, fixture), consents.admit(probe, fixture)];
    person.answer('deny');
    const settled = await Promise.allSettled(calls);
    assert.deepEqual(settled.map((s) => s.status), ['rejected', 'rejected', 'rejected']);
    assert.equal(person.asked.length, 1);
  });

  it('a destructive tool is confirmed on every call, with its arguments; a declined call is refused naming the tool; other tools run without a question', async () => {
    const person = new Person([], [true, false]);
    const consents = new ToolConsents(new MementoFake(), person);
    await consents.confirm(probe, fixture, echo, { text: 'hi' });
    await consents.confirm(probe, fixture, clear, { count: 3 });
    await assert.rejects(consents.confirm(probe, fixture, clear, { count: 4 }), refusal(/declined the extension "API Probe"'s call of "Clear completed todos", a destructive tool of the MCP server "fixture"/));
    assert.deepEqual(person.confirmed, ['API Probe → fixture · clear_completed {"count":3}', 'API Probe → fixture · clear_completed {"count":4}']);
  });

  it('Forget Saved Inputs lists each kept answer; forgotten, the extension is asked again', async () => {
    const memory = new MementoFake();
    const person = new Person(['allow', 'deny', 'allow']);
    const consents = new ToolConsents(memory, person);
    await consents.admit(probe, fixture);
    await assert.rejects(consents.admit(probe, second));
    const listed = consents.forgettable();
    assert.deepEqual(
      listed.map(({ label, description }) => ({ label, description })),
      [
        { label: 'Extension: API Probe may call the tools of fixture', description: 'tests.api-probe' },
        { label: 'Extension: API Probe may not call the tools of second', description: 'tests.api-probe' },
      ],
    );
    await listed[0].forget();
    assert.deepEqual(consents.forgettable().map((f) => f.label), ['Extension: API Probe may not call the tools of second']);
    await consents.admit(probe, fixture);
    assert.deepEqual(person.asked, ['API Probe → fixture', 'API Probe → second', 'API Probe → fixture']);
  });
});
