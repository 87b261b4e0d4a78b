import { strict as assert } from 'node:assert';
import { parseRequestedSchema } from '../../src/elicitation/schema';
import type { FormView } from '../../src/shared/protocol';
import { readableForm } from '../../webview/readable';

describe('the form page shows server text without invisible characters', () => {
  it('strips who asks, the message, titles, descriptions and option labels; leaves values alone', () => {
    const parsed = parseRequestedSchema({
      type: 'object',
      properties: {
        file: { type: 'string', title: 'File\u202Etxt.exe', description: 'pay\u200Bpal', default: 'a\u200Bb' },
        pick: { type: 'string', oneOf: [{ const: 'v\u200B1', title: 'One\u2066\u2069', description: 'first\u200D' }] },
      },
    });
    assert.ok(parsed.ok);
    const form: FormView = { requestId: 'r', asker: { server: 'ev\u202Eil', tool: 't\u200Bool', agent: 'Cl\u202Eaude', session: 'fi\u200Bx' }, message: 'Open \u2067this\u2069', questions: parsed.form.questions, drafts: {} };
    const shown = readableForm(form);
    assert.deepEqual([shown.asker.server, shown.asker.tool, shown.asker.agent, shown.asker.session, shown.message], ['evil', 'tool', 'Claude', 'fix', 'Open this']);
    const [file, pick] = shown.questions;
    assert.deepEqual([file.title, file.description, file.defaultValue], ['Filetxt.exe', 'paypal', 'a\u200Bb']);
    assert.ok(pick.kind === 'single-select');
    assert.deepEqual(pick.options, [{ value: 'v\u200B1', label: 'One', description: 'first' }]);
  });
});
