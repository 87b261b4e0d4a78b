import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  decide,
  describeToolUse,
  hookResponse,
  parseHookBody,
  parsePromptToolInput,
  PermissionInputError,
  permissionQuestion,
  promptToolText,
} from '../../src/gateway/permission-question';
import { parseRequestedSchemaOrThrow } from '../../src/elicitation/schema';
import { choosePresentation } from '../../src/elicitation/request';
import { dialogChoices } from '../../src/ui/prompts/dialog-choices';

const recorded = (name: string): unknown => JSON.parse(readFileSync(join(__dirname, '../fixtures/claude-code', name), 'utf8'));

describe('Claude Code permission requests as questions', () => {
  it('a shell command is a destructive question showing the command, with "allow for this session" from the suggestion', () => {
    const request = parseHookBody(recorded('permission-request-bash.json'));
    const { params, source } = permissionQuestion(request);
    assert.deepEqual(source, { server: 'Claude Code', tool: 'Bash', destructive: true, personStarted: true });
    assert.match(params.message, /run this shell command:\n\nrm -rf node_modules && npm ci\n\nReinstall dependencies/);
    const form = parseRequestedSchemaOrThrow(params.requestedSchema);
    assert.equal(form.questions.length, 1);
    const question = form.questions[0];
    assert.ok(question.kind === 'single-select');
    assert.deepEqual(question.options.map((o) => [o.value, o.label]), [
      ['once', 'Allow this time'],
      ['session', 'Allow for this session'],
    ]);
    // What the session grant allows is in the message (a dialog button holds a short label).
    assert.match(params.message, /"Allow for this session" also allows, until Claude Code exits: Bash\(npm ci:\*\)$/);
    // The person started their agent: a modal asks it, one button per choice.
    assert.deepEqual(dialogChoices(question)?.map((o) => o.label), ['Allow this time', 'Allow for this session']);
  });

  it('without suggestions it is a plain yes/no (a confirm, modal for destructive tools)', () => {
    const { params, source } = permissionQuestion({ toolName: 'Write', input: { file_path: '/a/b.txt', content: 'one\ntwo' }, suggestions: [] });
    assert.equal(source.destructive, true);
    assert.match(params.message, /write \/a\/b\.txt \(2 lines\):\n\none\ntwo/);
    const form = parseRequestedSchemaOrThrow(params.requestedSchema);
    assert.equal(choosePresentation({ id: 'x', mode: 'form', source, message: params.message, questions: form.questions, createdAt: 0 }, { forceForm: false }), 'confirm');
  });

  it('reading and fetching are not destructive; MCP tools are named by server and tool', () => {
    assert.equal(permissionQuestion(parseHookBody(recorded('permission-request-webfetch.json'))).source.destructive, undefined);
    assert.match(describeToolUse('mcp__github__create_issue', { title: 'x' }), /the tool create_issue of the MCP server github with:\n\n\{\n {2}"title": "x"\n\}/);
    assert.match(describeToolUse('Edit', recorded('permission-request-edit.json') as never), /edit/);
  });

  it('long input is clipped, never dropped silently', () => {
    const text = describeToolUse('Bash', { command: 'x'.repeat(5000) });
    assert.match(text, /… \(3500 more characters\)$/);
  });

  it('answers in the hook contract: allow, allow for the session (suggestions kept in memory), deny, no decision', () => {
    const request = parseHookBody(recorded('permission-request-bash.json'));
    assert.deepEqual(hookResponse(decide(request, { action: 'accept', content: { decision: 'once' } }, 'undecided')), {
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });
    assert.deepEqual(hookResponse(decide(request, { action: 'accept', content: { decision: 'session' } }, 'undecided')), {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: {
          behavior: 'allow',
          updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm ci:*' }], behavior: 'allow', destination: 'session' }],
        },
      },
    });
    const denied = hookResponse(decide(request, { action: 'decline' }, 'undecided')) as { hookSpecificOutput: { decision: { behavior: string; message: string } } };
    assert.equal(denied.hookSpecificOutput.decision.behavior, 'deny');
    assert.match(denied.hookSpecificOutput.decision.message, /denied/);
    assert.equal(hookResponse(decide(request, { action: 'cancel' }, 'undecided')), undefined, 'dismissed: Claude Code asks in its own terminal');
  });

  it('suggestions that would widen beyond the session or bypass permissions are never offered', () => {
    const request = parseHookBody({
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      permission_suggestions: [
        { type: 'setMode', mode: 'bypassPermissions', destination: 'session' },
        { type: 'addRules', rules: [{ toolName: 'Bash' }], behavior: 'deny', destination: 'userSettings' },
        { type: 'removeRules', rules: [{ toolName: 'Bash' }], behavior: 'deny', destination: 'userSettings' },
        'not an entry',
      ],
    });
    assert.deepEqual(parseRequestedSchemaOrThrow(permissionQuestion(request).params.requestedSchema).questions, []);
  });

  it('answers in the --permission-prompt-tool contract; a dismissed question denies', () => {
    const request = parsePromptToolInput({ tool_name: 'Bash', input: { command: 'ls -la' }, tool_use_id: 'toolu_01' });
    assert.deepEqual(JSON.parse(promptToolText(request, decide(request, { action: 'accept', content: {} }, 'deny'))), { behavior: 'allow', updatedInput: { command: 'ls -la' } });
    const dismissed = JSON.parse(promptToolText(request, decide(request, { action: 'cancel' }, 'deny'))) as { behavior: string; message: string };
    assert.equal(dismissed.behavior, 'deny');
    assert.match(dismissed.message, /dismissed/);
  });

  it('refuses malformed input naming the field', () => {
    const cases: Array<[unknown, RegExp]> = [
      [[], /JSON object/],
      [{ tool_name: '', tool_input: {} }, /tool_name/],
      [{ tool_name: 'Bash', tool_input: 'ls' }, /tool_input/],
      [{ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: {} }, /hook_event_name/],
      [{ tool_name: 'Bash', tool_input: {}, permission_suggestions: {} }, /permission_suggestions/],
    ];
    for (const [body, pattern] of cases) assert.throws(() => parseHookBody(body), (e: Error) => e instanceof PermissionInputError && pattern.test(e.message));
    assert.throws(() => parsePromptToolInput({ tool_name: 'Bash' }), /input must be an object/);
  });
});
