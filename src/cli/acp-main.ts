/**
 * `elicitation-host acp`: a thin renderer over src/acp. Starts the agent, answers any
 * question before the session, opens a session in the current folder, sets the mode and
 * config options asked for, sends the prompt and prints the turn as text or JSON lines.
 * Questions are answered as `call` answers them; permissions by --permissions, else the same way.
 * A permission a rule answered is printed with the tool call as the dialog would have shown it
 * (src/elicitation/permission-text.ts), so a CI log says what the rule allowed or refused.
 */
import { readFileSync } from 'node:fs';
import { AgentClient, describeExit } from '../acp/agent-client';
import type { AgentSession } from '../acp/agent-session';
import { diskFiles } from '../acp/disk-files';
import { type SessionEvent, toolCallEnded } from '../acp/session-events';
import type { Prompter } from '../elicitation/broker';
import { type AcpOptions, ACP_USAGE, parseAcpArgs } from './acp-args';
import { agentName } from './agent-argv';
import { permissionPolicy, type PermissionPolicy, readRules } from './acp-permissions';
import { choosePrompter } from './choose-prompter';
import { ExitCode, optionsOrExit, RunVerdict, UsageError } from './exit-code';
import { createOutput, type Output, relayStderr } from './output';
import { runnerHost } from './runner-host';

function policyOf(permissions: string | undefined): PermissionPolicy | undefined {
  if (permissions === undefined) return undefined;
  if (permissions === 'allow' || permissions === 'deny') return permissionPolicy(permissions);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(permissions, 'utf8'));
  } catch (error) {
    throw new UsageError(`cannot read the permissions file ${permissions}: ${(error as Error).message}`);
  }
  try {
    return permissionPolicy(readRules(data));
  } catch (error) {
    throw new UsageError(`the permissions file ${permissions}: ${(error as Error).message}`);
  }
}

/** Prints one event of the session; the reply's chunks are gathered into lines by `flush`. */
class TurnPrinter {
  private text = '';
  private kind: 'agent' | 'thought' | undefined;

  constructor(private readonly out: Output) {}

  print(event: SessionEvent): void {
    if (event.type === 'message' || event.type === 'thought') {
      const kind = event.type === 'thought' ? 'thought' : 'agent';
      if (event.type === 'message' && event.role === 'user') return;
      if (kind !== this.kind) this.flush();
      this.kind = kind;
      this.text += event.text;
      return;
    }
    this.flush();
    switch (event.type) {
      case 'tool-call':
        if (event.first || toolCallEnded(event.toolCall.status)) {
          this.out.line(`[tool] ${event.toolCall.title} (${event.toolCall.kind}): ${event.toolCall.status}`, { type: 'tool_call', id: event.toolCall.id, title: event.toolCall.title, kind: event.toolCall.kind, status: event.toolCall.status });
        }
        return;
      case 'plan':
        this.out.line(`[plan]\n${event.entries.map((e) => `  - ${e.content} (${e.status})`).join('\n')}`, { type: 'plan', entries: event.entries });
        return;
      case 'mode':
        this.out.line(`[mode] ${event.mode.name} (${event.mode.id})`, { type: 'mode', id: event.mode.id, name: event.mode.name });
        return;
      case 'permission': {
        // A rule answered without asking: the log shows what it allowed or refused, as the dialog would have shown it.
        const shown = event.by === 'rule' ? `, by --permissions, for:\n${event.shown.replace(/^/gm, '    ')}` : '';
        this.out.line(`! ${event.asker} asked permission (${event.kind}): ${event.answer}${shown}`, { type: 'permission', asker: event.asker, toolCall: event.toolCall, kind: event.kind, answer: event.answer, optionKind: event.optionKind ?? null, by: event.by, shown: event.shown });
        return;
      }
      case 'question':
        this.out.line(`? ${event.asker} asked: ${event.message} → ${event.action}`, { type: 'question', asker: event.asker, message: event.message, action: event.action });
        return;
      case 'notice':
        this.out.line(`[${event.severity}] ${event.title}${event.description ? `: ${event.description}` : ''}`, { type: 'notice', severity: event.severity, title: event.title });
        return;
      case 'turn-end':
        this.out.line(`[stop] ${event.stopReason}`, { type: 'stop', stopReason: event.stopReason });
        return;
      default:
        return;
    }
  }

  flush(): void {
    if (this.text === '') return;
    const text = this.text;
    this.text = '';
    if (this.kind === 'thought') this.out.line(`[thought] ${text}`, { type: 'thought', text });
    else this.out.line(text, { type: 'message', text });
  }
}

async function setUp(session: AgentSession, options: AcpOptions): Promise<void> {
  if (options.mode !== undefined) await session.setMode(options.mode);
  for (const { id, value } of options.config) {
    const option = session.configOptions.find((o) => o.id === id);
    await session.setConfigOption(id, option?.type === 'boolean' ? value === 'true' : value);
  }
}

export async function acpMain(argv: readonly string[], meta: { readonly version: string }): Promise<number> {
  const parsed = optionsOrExit(argv, parseAcpArgs, ACP_USAGE);
  if ('exit' in parsed) return parsed.exit;
  const options = parsed.options;
  const out = createOutput(options.json);
  const verdict = new RunVerdict();
  let prompter: Prompter;
  let policy: PermissionPolicy | undefined;
  let prompt: string;
  try {
    prompter = choosePrompter(options, out, verdict, (message) => new UsageError(message));
    policy = policyOf(options.permissions);
    prompt = 'text' in options.prompt ? options.prompt.text : readFileSync(options.prompt.file, 'utf8');
  } catch (error) {
    out.error((error as Error).message);
    return ExitCode.failure;
  }
  const { broker } = runnerHost(prompter, out, { printErrors: false });
  const name = agentName(options.agent.command, options.agent.args);
  const printer = new TurnPrinter(out);
  let client: AgentClient | undefined;
  try {
    client = await AgentClient.start(
      { name, command: options.agent.command, args: options.agent.args },
      {
        broker,
        files: diskFiles,
        // The person runs the agent in this folder themselves: it is theirs to trust.
        isTrusted: () => true,
        log: { info: () => undefined, warn: (m) => out.error(m), error: (m) => out.error(m), stderr: relayStderr },
        settings: () => ({ urlMode: true, applyDefaults: true, elicitationTimeoutMs: 0 }),
        clientInfo: { name: 'elicitation-host-cli', version: meta.version },
        ...(policy && { permissionPolicy: policy }),
      },
    );
    client.events.add((e) => e.type === 'question' && printer.print(e));
    const session = await client.newSession({ cwd: process.cwd() });
    session.events.add((event) => {
      printer.print(event);
      if (event.type === 'permission' && !event.optionKind?.startsWith('allow')) verdict.note(ExitCode.permissionRefused);
    });
    if (session.modes) out.line(`[mode] ${session.modes.current.name} (${session.modes.current.id})`, { type: 'mode', id: session.modes.current.id, name: session.modes.current.name });
    await setUp(session, options);
    const stop = await session.prompt(prompt);
    printer.flush();
    if (stop !== 'end_turn') verdict.note(ExitCode.failure);
  } catch (error) {
    printer.flush();
    const exit = client && (await Promise.race([client.exited, Promise.resolve(undefined)]));
    out.error(exit ? `${(error as Error).message} (${name}: ${describeExit(exit)})` : (error as Error).message);
    verdict.note(ExitCode.failure);
  } finally {
    await client?.close();
  }
  return verdict.exitCode;
}
