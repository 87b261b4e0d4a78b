// The gateway probe: an extension standing in for an agent in VS Code (test/e2e/ui-gateway.test.ts).
// Palette commands take no arguments, so the test writes the call to PROBE_DIR/request.json
// ({ server, tool, input }) and waits for PROBE_DIR/result.json, written whole (renamed into place).
'use strict';
// Plain CommonJS, loaded as is by the extension host: no build step for a test-only extension.
/* global require, exports, process, setTimeout */
/* eslint-disable @typescript-eslint/no-require-imports */
const vscode = require('vscode');
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const HOST = 'elicitation-host.elicitation-host';

function write(name, value) {
  const dir = process.env.PROBE_DIR;
  if (!dir) throw new Error('PROBE_DIR is not set: the probe has nowhere to write');
  const path = join(dir, name);
  writeFileSync(`${path}.tmp`, JSON.stringify(value));
  renameSync(`${path}.tmp`, path);
}

/** VS Code names a served tool mcp_<server>_<tool>, the server's name possibly with _ for -. */
function findTool(server, tool) {
  const names = [server, server.replace(/-/g, '_')];
  return vscode.lm.tools.find((t) => t.name.endsWith(`_${tool}`) && names.some((n) => t.name.includes(n)));
}

async function servedTool(server, tool) {
  let found = findTool(server, tool);
  if (found) return found;
  // Our provider lists its servers once the gateway listens (it then sets this variable).
  await vscode.extensions.getExtension(HOST)?.activate();
  const end = Date.now() + 60_000;
  let asked = 0;
  while (!(found = findTool(server, tool))) {
    if (Date.now() > end) {
      throw new Error(`VS Code lists no ${tool} of ${server} (gateway at ${process.env.ELICITATION_HOST_MCP_URL ?? 'none'}): ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
    }
    // Outside chat VS Code starts a provider's server only when asked; asked again while the provider may not list it yet.
    if (process.env.ELICITATION_HOST_MCP_URL && Date.now() - asked > 5000) {
      asked = Date.now();
      await vscode.commands.executeCommand('workbench.mcp.startServer', `${HOST}/${server}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return found;
}

/** @type {vscode.CancellationTokenSource | undefined} */
let inFlight;

async function invoke() {
  const started = Date.now();
  try {
    const request = JSON.parse(readFileSync(join(process.env.PROBE_DIR ?? '', 'request.json'), 'utf8'));
    const tool = await servedTool(request.server, request.tool);
    inFlight = new vscode.CancellationTokenSource();
    write('started.json', { tool: tool.name });
    const result = await vscode.lm.invokeTool(tool.name, { input: request.input, toolInvocationToken: undefined }, inFlight.token);
    const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    write('result.json', { tool: tool.name, text, ms: Date.now() - started });
  } catch (error) {
    write('result.json', { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error), ms: Date.now() - started });
  } finally {
    inFlight?.dispose();
    inFlight = undefined;
  }
}

/** Writes where the gateway listens once it does (it starts after our host activates). */
async function gatewayEnvironment() {
  await vscode.extensions.getExtension(HOST)?.activate();
  const end = Date.now() + 30_000;
  while (!process.env.ELICITATION_HOST_MCP_URL && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  write('gateway.json', { url: process.env.ELICITATION_HOST_MCP_URL ?? '', token: process.env.ELICITATION_HOST_MCP_TOKEN ?? '' });
}

/**
 * Starts a terminal the way a person's terminal starts (not hidden, not strict) whose shell
 * writes the gateway's variables it was given: VS Code applies our environment collection.
 */
function terminalEnvironment() {
  const dir = process.env.PROBE_DIR ?? '';
  const out = join(dir, 'terminal.txt');
  const script = `printf '%s\\n%s\\n' "$ELICITATION_HOST_MCP_URL" "$ELICITATION_HOST_MCP_TOKEN" > '${out}.tmp' && mv '${out}.tmp' '${out}'`;
  vscode.window.createTerminal({ name: 'Gateway Probe', shellPath: '/bin/sh', shellArgs: ['-c', script] });
}

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand('probe.invokeServedTool', () => void invoke()),
    vscode.commands.registerCommand('probe.cancel', () => {
      write('cancelled.json', { cancelled: inFlight !== undefined });
      inFlight?.cancel();
    }),
    vscode.commands.registerCommand('probe.gatewayEnvironment', () => void gatewayEnvironment()),
    vscode.commands.registerCommand('probe.terminalEnvironment', terminalEnvironment),
  );
};
exports.deactivate = () => undefined;
