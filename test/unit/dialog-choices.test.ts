import { strict as assert } from 'node:assert';
import { parseRequestedSchemaOrThrow } from '../../src/elicitation/schema';
import { dialogChoices, mayUseModal } from '../../src/ui/prompts/dialog-choices';

function question(property: object, required = true) {
  return parseRequestedSchemaOrThrow({ type: 'object', properties: { x: property }, ...(required && { required: ['x'] }) }).questions[0];
}

const labels = (property: object, required = true): string[] | undefined => dialogChoices(question(property, required))?.map((o) => o.label);

describe('which destructive choices a modal asks with one button each', () => {
  it('a required choice of one to three short labels: one button per choice, in order', () => {
    // One choice beside Decline: Claude Code's request without a grant to offer (Allow this time).
    assert.deepEqual(labels({ type: 'string', oneOf: [{ const: 'once', title: 'Allow this time' }] }), ['Allow this time']);
    assert.deepEqual(labels({ type: 'string', oneOf: [{ const: 'once', title: 'Allow this time' }, { const: 'always', title: 'Allow for this session' }] }), ['Allow this time', 'Allow for this session']);
    assert.deepEqual(labels({ type: 'string', enum: ['a', 'b', 'c'] }), ['a', 'b', 'c']);
  });

  it('stays in the quick pick when the dialog could not show it exactly or leave nothing out', () => {
    // Optional: the dialog has no way to leave it unanswered.
    assert.equal(labels({ type: 'string', enum: ['a', 'b'] }, false), undefined);
    // More than a row of buttons holds.
    assert.equal(labels({ type: 'string', enum: ['a', 'b', 'c', 'd'] }), undefined);
    // "&&" is the dialog's mnemonic marker, which it strips.
    assert.equal(labels({ type: 'string', oneOf: [{ const: 'a', title: 'rm -rf x && make' }, { const: 'b', title: 'keep' }] }), undefined);
    // A label over one line or too long for a button.
    assert.equal(labels({ type: 'string', oneOf: [{ const: 'a', title: 'one\ntwo' }, { const: 'b', title: 'keep' }] }), undefined);
    assert.equal(labels({ type: 'string', oneOf: [{ const: 'a', title: 'x'.repeat(61) }, { const: 'b', title: 'keep' }] }), undefined);
    // Not a single choice.
    assert.equal(labels({ type: 'boolean' }), undefined);
    assert.equal(labels({ type: 'array', items: { type: 'string', enum: ['a', 'b'] } }), undefined);
  });
});

describe('which questions may take a modal', () => {
  it("only a question of a call the person started and waits on; a background task's never, whoever started it", () => {
    assert.equal(mayUseModal({ server: 's', personStarted: true }), true);
    assert.equal(mayUseModal({ server: 's' }), false);
    assert.equal(mayUseModal({ server: 's', agent: 'Claude Code' }), false);
    assert.equal(mayUseModal({ server: 's', tool: 'Research', personStarted: true, background: true }), false);
  });
});
