/**
 * `elicitation-host acp-proxy -- <agent command>`: runs the agent and stands between it and
 * the ACP client that started us (our stdin and stdout), so that a client which cannot ask
 * an agent's questions still gets them asked: in the VS Code window of our terminal, else on
 * the terminal (outside-asker.ts). The routing is src/acp/proxy-router.ts; this file is the
 * process around it: the agent's process, the two line streams, signals and the exit code.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { createInterface } from 'node:readline';
import { endChild, STOP_GRACE_MS } from '../acp/agent-process';
import { childEnvironment } from '../base/child-environment';
import { ProxyQuestionRefused, ProxyRouter } from '../acp/proxy-router';
import { terminalSafe } from '../elicitation/plain-text';
import { ACP_PROXY_USAGE, parseAcpProxyArgs } from './acp-proxy-args';
import { agentName } from './agent-argv';
import { ExitCode, optionsOrExit } from './exit-code';
import { outsideAsker } from './outside-asker';
import { QuestionRefusedError } from './window-asker';

/** How long the agent may take to end by itself once the client has gone, before SIGTERM (and SIGKILL after as long again). */
const AGENT_GRACE_MS = STOP_GRACE_MS;

function say(message: string): void {
  process.stderr.write(`elicitation-host acp-proxy: ${terminalSafe(message)}\n`);
}

export async function acpProxyMain(argv: readonly string[], deps: { readonly env?: Readonly<Record<string, string | undefined>> } = {}): Promise<number> {
  const parsed = optionsOrExit(argv, parseAcpProxyArgs, ACP_PROXY_USAGE);
  if ('exit' in parsed) return parsed.exit;
  const { agent, answering } = parsed.options;
  let asker;
  try {
    asker = outsideAsker({ ...(answering && { answering }), env: deps.env ?? process.env, notice: say });
  } catch (error) {
    say((error as Error).message);
    return ExitCode.failure;
  }
  const name = agentName(agent.command, agent.args);
  // The agent's stderr is the client's to see, as if it had started the agent itself.
  // The proxy asks the window with its token; the agent it starts never gets it.
  const child = spawn(agent.command, [...agent.args], { stdio: ['pipe', 'pipe', 'inherit'], env: childEnvironment(deps.env ?? process.env) });
  const exited = new Promise<number>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      say(`${agent.command} could not be started: ${error.code ?? error.message}`);
      if (child.pid === undefined) resolve(ExitCode.failure);
    });
    // Killed by a signal: the shell's convention, 128 + its number.
    child.once('close', (code, signal) => resolve(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : ExitCode.failure)));
  });
  child.stdin.on('error', () => undefined);
  const router = new ProxyRouter({
    toAgent: (line) => child.stdin.write(`${line}\n`),
    toClient: (line) => process.stdout.write(`${line}\n`),
    log: say,
    async ask(question, signal) {
      try {
        const { action, content } = await asker.ask({ from: name, agent: true, ...(question.tool !== undefined && { tool: question.tool }), ...(question.session !== undefined && { session: question.session }), question: question.params }, signal);
        return action === 'accept' && content ? { action, content } : { action };
      } catch (error) {
        if (error instanceof QuestionRefusedError) throw new ProxyQuestionRefused(error.message);
        throw error;
      }
    },
  });
  const fromClient = createInterface({ input: process.stdin, crlfDelay: Infinity });
  const fromAgent = createInterface({ input: child.stdout, crlfDelay: Infinity });
  fromClient.on('line', (line) => line !== '' && router.fromClient(line));
  fromAgent.on('line', (line) => line !== '' && router.fromAgent(line));
  // An agent asked to end is killed if it has not after the grace, as the extension's own agents are (agent-process.ts).
  let ending: Promise<number> | undefined;
  const end = (signal?: NodeJS.Signals): void => {
    ending ??= endChild(child, exited, { ...(signal && { signal }), graceMs: AGENT_GRACE_MS });
  };
  fromClient.once('close', () => {
    // The client went away: the agent's stdin ends too, and it gets a moment to finish.
    router.close('the client went away');
    child.stdin.end();
    const timer = setTimeout(() => end(), AGENT_GRACE_MS);
    void exited.then(() => clearTimeout(timer));
  });
  // Our own signal goes on to the agent as it came (Ctrl-C stays Ctrl-C).
  const stop = (signal: NodeJS.Signals): void => end(signal);
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, stop);
  const code = await exited;
  router.close('the agent ended');
  asker.close();
  fromClient.close();
  process.stdin.destroy();
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(s, stop);
  return code;
}
