// The API probe: an agent living in an extension (test/e2e/ui-extension-api.test.ts). Palette
// commands take no arguments, so the test writes PROBE_DIR/ask.json ({ call, args, as? }: `as`
// is the id given to forExtension, this extension's own by default) and waits
// for PROBE_DIR/answer.json, written whole (renamed into place); a live request's answer
// changes are appended to PROBE_DIR/changes.jsonl as they come.
'use strict';
// Plain CommonJS, loaded as is by the extension host: no build step for a test-only extension.
/* global require, exports, process */
/* eslint-disable @typescript-eslint/no-require-imports */
const vscode = require('vscode');
const { appendFileSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = () => {
  if (!process.env.PROBE_DIR) throw new Error('PROBE_DIR is not set: the probe has nowhere to write');
  return process.env.PROBE_DIR;
};

function write(name, value) {
  const path = join(dir(), name);
  writeFileSync(`${path}.tmp`, JSON.stringify(value));
  renameSync(`${path}.tmp`, path);
}

/** The open live request, for apiProbe.updateDraft. */
let live;

async function ask(context) {
  try {
    const { call, args, as } = JSON.parse(readFileSync(join(dir(), 'ask.json'), 'utf8'));
    const host = await vscode.extensions.getExtension('elicitation-host.elicitation-host').activate();
    // The asker speaks in this extension's name (its display name, from its manifest).
    const api = host.forExtension(as ?? context.extension.id);
    if (call === 'confirm') return write('answer.json', { value: await api.confirm(args) });
    if (call === 'elicit') return write('answer.json', { value: await api.elicit(args) });
    if (call === 'callTool') return write('answer.json', { value: await api.callTool(args.server, args.tool, args.args) });
    const handle = (live = api.requestInput(args));
    handle.onDidChangeAnswer((change) => appendFileSync(join(dir(), 'changes.jsonl'), `${JSON.stringify(change)}\n`));
    write('answer.json', { value: await handle.completion });
  } catch (error) {
    write('answer.json', { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error), ...(typeof error?.code === 'number' && { code: error.code }) });
  }
}

/** Sets a draft of the open live request, as PROBE_DIR/update.json says ({ questionId, answer }). */
function updateDraft() {
  const { questionId, answer } = JSON.parse(readFileSync(join(dir(), 'update.json'), 'utf8'));
  write('updated.json', live ? live.updateDraft(questionId, answer) : { ok: false, reason: 'no live request' });
}

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand('apiProbe.ask', () => void ask(context)),
    vscode.commands.registerCommand('apiProbe.updateDraft', updateDraft),
  );
};
exports.deactivate = () => undefined;
