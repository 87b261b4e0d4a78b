/**
 * `elicitation-host call` and `call-all`: calls MCP tools from the command line and answers
 * their elicitations from a file, with defaults, by declining, or on the console; the same
 * core as the extension. Lets server authors test their elicitations in CI. Its arguments:
 * call-args.ts.
 */
import type { Prompter } from '../elicitation/broker';
import type { ServerDefinition } from '../mcp/config/config';
import { argumentsFor } from '../mcp/tool-args';
import { CALL_USAGE, type CallOptions, parseCallArgs } from './call-args';
import { ExitCode, optionsOrExit, RunVerdict, UsageError } from './exit-code';
import { choosePrompter } from './choose-prompter';
import { createOutput } from './output';
import { runnerConnection } from './runner-connection';
import { runnerHost } from './runner-host';
import { runnerSignIn } from './runner-sign-in';
import { taskLines } from './task-lines';
import { errorMessage } from '../base/error-message';

/** The script or package the command runs (`node server.js --port 3` is "server.js"), else the command. */
function stdioServerName(command: string, args: readonly string[]): string {
  const runs = args.find((a) => !a.startsWith('-')) ?? command;
  return runs.split(/[\\/]/).pop() || command;
}

function definitionOf(options: CallOptions): ServerDefinition {
  const target = options.target;
  return target.kind === 'url'
    ? { name: new URL(target.url).host, source: { kind: 'user' }, config: { type: 'http', url: target.url, headers: {} } }
    : { name: stdioServerName(target.command, target.args), source: { kind: 'user' }, config: { type: 'stdio', command: target.command, args: [...target.args], env: {} } };
}

function resultText(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as Array<{ type?: string; text?: string }>) : [];
  return content.map((c) => (c.type === 'text' ? (c.text ?? '') : `[${c.type ?? 'content'}]`)).join('\n');
}

/** `argv` from the command on (`call …`, `call-all …`; else the usage, or an error with it). */
export async function callMain(argv: readonly string[], meta: { readonly version: string }): Promise<number> {
  const parsed = optionsOrExit(argv, parseCallArgs, CALL_USAGE);
  if ('exit' in parsed) return parsed.exit;
  const options: CallOptions = parsed.options;
  const out = createOutput(options.json);
  const verdict = new RunVerdict();
  let prompter: Prompter;
  try {
    prompter = choosePrompter(options, out, verdict, (message) => new UsageError(message));
  } catch (error) {
    out.error((error as Error).message);
    return ExitCode.failure;
  }
  const { broker, log } = runnerHost(prompter, out, { printErrors: false });
  const signIn = await runnerSignIn(options.signIn, options.target.kind === 'url', out);
  const connection = runnerConnection(definitionOf(options), {
    signIn: signIn.forServer,
    broker,
    log,
    out,
    verdict,
    clientInfo: { name: 'elicitation-host-cli', version: meta.version },
    toolTimeoutMs: 120_000,
  });
  try {
    await connection.start();
  } catch (error) {
    out.error(errorMessage(error));
    await connection.stop();
    await signIn.close();
    return ExitCode.failure;
  }
  try {
    const tools = options.command === 'call' ? connection.tools.filter((t) => t.name === options.tool) : connection.tools;
    if (options.command === 'call' && tools.length === 0) {
      out.error(`the server has no tool "${options.tool}" (it has: ${connection.tools.map((t) => t.name).join(', ')})`);
      return ExitCode.failure;
    }
    for (const tool of tools) {
      const args = options.command === 'call' ? options.args : argumentsFor(tool.inputSchema, options.args);
      out.line(`$ ${tool.name} ${JSON.stringify(args)}`, { type: 'call', tool: tool.name, arguments: args });
      let result: Record<string, unknown>;
      try {
        result = (await connection.callTool(tool.name, args, { onTask: taskLines(out) })) as unknown as Record<string, unknown>;
      } catch (error) {
        // One tool's failure is its own outcome: call-all goes on to the next tool.
        verdict.note(ExitCode.failure);
        const code = (error as { code?: unknown }).code;
        out.error(`${tool.name} failed: ${errorMessage(error)}`, { tool: tool.name, ...(typeof code === 'number' && { code }) });
        continue;
      }
      const isError = result.isError === true;
      if (isError) verdict.note(ExitCode.toolError);
      out.line(`${isError ? '✗' : '✓'} ${tool.name}${isError ? ' (isError)' : ''}: ${resultText(result)}`, { type: 'result', tool: tool.name, isError, result });
    }
    return verdict.exitCode;
  } finally {
    await connection.stop();
    await signIn.close();
  }
}
