/**
 * `elicitation-host`: calls MCP tools from the command line and answers their elicitations
 * from a file, with defaults, by declining, or on the console; the same core as the
 * extension. Lets server authors test their elicitations in CI.
 */
import { readFileSync } from 'node:fs';
import { Broker, type Prompter } from '../elicitation/broker';
import { SchemaChecker } from '../elicitation/schema-check';
import { InputStore } from '../elicitation/store';
import type { ServerDefinition } from '../mcp/config';
import { CallError, type ServerLog, ServerConnection } from '../mcp/connection';
import { argumentsFor } from '../mcp/tool-args';
import { type CliOptions, parseArgs, USAGE, UsageError } from './args';
import { AnswersFilePrompter, ConsolePrompter, consoleUrlFlow, createOutput, DeclinePrompter, DefaultsPrompter, type Output } from './prompters';

function choosePrompter(options: CliOptions, out: Output): Prompter {
  if (options.answersFile !== undefined) {
    let results: unknown;
    try {
      results = JSON.parse(readFileSync(options.answersFile, 'utf8'));
    } catch (error) {
      throw new UsageError(`cannot read the answers file ${options.answersFile}: ${(error as Error).message}`);
    }
    if (!Array.isArray(results)) throw new UsageError('the answers file must hold a JSON array of ElicitResult objects');
    return new AnswersFilePrompter(results, out);
  }
  if (options.acceptDefaults) return new DefaultsPrompter(out);
  if (options.decline) return new DeclinePrompter(out);
  if (process.stdin.isTTY) return new ConsolePrompter(out);
  return {
    async ask() {
      out.error('an elicitation arrived, but there is no terminal to ask in: use --answers FILE, --accept-defaults or --decline');
      return { action: 'cancel' };
    },
  };
}

function definitionOf(options: CliOptions): ServerDefinition {
  const target = options.target;
  return target.kind === 'url'
    ? { name: new URL(target.url).host, source: { kind: 'user' }, config: { type: 'http', url: target.url, headers: {} } }
    : { name: [target.command, ...target.args.filter((a) => !a.startsWith('-'))].pop()!.split(/[\\/]/).pop()!, source: { kind: 'user' }, config: { type: 'stdio', command: target.command, args: [...target.args], env: {} } };
}

function resultText(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as Array<{ type?: string; text?: string }>) : [];
  return content.map((c) => (c.type === 'text' ? (c.text ?? '') : `[${c.type ?? 'content'}]`)).join('\n');
}

export async function main(argv: readonly string[]): Promise<number> {
  let options: CliOptions | 'help';
  try {
    options = parseArgs(argv);
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n\n${USAGE}\n`);
    return 1;
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const out = createOutput(options.json);
  let prompter: Prompter;
  try {
    prompter = choosePrompter(options, out);
  } catch (error) {
    out.error((error as Error).message);
    return 1;
  }
  const store = new InputStore();
  const checker = new SchemaChecker();
  const broker = new Broker({ store, prompter, checkContent: (s, c) => checker.check(s, c), forceForm: () => false });
  const log: ServerLog = {
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
    trace: () => undefined,
    traceEnabled: false,
    stderr: (line) => process.stderr.write(`[server] ${line}\n`),
  };
  const connection = new ServerConnection(definitionOf(options), {
    broker,
    log,
    settings: () => ({ urlMode: true, applyDefaults: true, toolTimeoutMs: 120_000, elicitationTimeoutMs: 0, maxRounds: 5 }),
    roots: () => [{ uri: `file://${process.cwd()}`, name: 'cwd' }],
    clientInfo: { name: 'elicitation-host-cli', version: '0.1.0' },
    urlFlow: consoleUrlFlow(out),
    reconnectDelaysMs: [],
  });
  let exitCode = 0;
  try {
    await connection.start();
    const tools = options.command === 'call' ? connection.tools.filter((t) => t.name === options.tool) : connection.tools;
    if (options.command === 'call' && tools.length === 0) {
      out.error(`the server has no tool "${options.tool}" (it has: ${connection.tools.map((t) => t.name).join(', ')})`);
      return 1;
    }
    for (const tool of tools) {
      const args = options.command === 'call' ? options.args : argumentsFor(tool.inputSchema, options.args);
      out.line(`$ ${tool.name} ${JSON.stringify(args)}`, { type: 'call', tool: tool.name, arguments: args });
      const result = (await connection.callTool(tool.name, args)) as unknown as Record<string, unknown>;
      const isError = result.isError === true;
      if (isError) exitCode = Math.max(exitCode, 2);
      out.line(`${isError ? '✗' : '✓'} ${tool.name}${isError ? ' (isError)' : ''}: ${resultText(result)}`, { type: 'result', tool: tool.name, isError, result });
    }
    return exitCode;
  } catch (error) {
    out.error(error instanceof CallError || error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    await connection.stop();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
