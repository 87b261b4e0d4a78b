/// <reference lib="dom" />
/**
 * An agent host's question on screen, against the same question from an MCP server, in one
 * workbench. The host is VS Code 1.139.1's real agent host running Claude on the fake model
 * (test/support/agent-host.ts); the bench's own AHP client starts a turn ("ask me one") whose
 * AskUserQuestion asks "Which colour?" with two options, a quick pick here. The fixture server's
 * `ask_colour_later` asks the same question with the same params, the same quiet time after
 * Run Tool's pickers closed. Each is timed from its arrival at our client (the AHP client
 * receiving the `chat/inputRequested` action; our MCP client receiving `elicitation/create`,
 * both stamped by the benchmark build) to the quick input showing it. Pairs, the two in turn;
 * the ratio is the median of the pairs' ratios, with its 95% interval.
 */
import { type FakeAnthropic, startFakeAnthropic } from '../test/fixtures/acp/fake-anthropic';
import { ASK_ONE_PROMPT, claudeTurns, COLOUR } from '../test/fixtures/ahp/claude-turns';
import { type RunningAgentHost, startAgentHost } from '../test/support/agent-host';
import { AhpTestClient } from '../test/support/ahp-test-client';
import type { Ui } from '../test/e2e/ui-setup';
import { connectAgentHost, type ResultTabs, runTool } from '../test/e2e/ui-steps';
import { waitUntil } from '../test/support/wait';
import { stampQuickInput } from './agents';
import { events } from './forms';
import { CONFIRM_AFTER_MS } from './quiet';
import type { Figures } from './row';
import { inTurn, median, medianInterval, round } from './stats';

const SAMPLES = 20;
const HOST_NAME = 'bench host';

/** The agent host and the bench's own client of it, with a Claude session: started before the workbench. */
export interface AhpBenchHost {
  readonly model: FakeAnthropic;
  readonly host: RunningAgentHost;
  readonly client: AhpTestClient;
  readonly chat: string;
  stop(): Promise<void>;
}

export async function startAhpBenchHost(): Promise<AhpBenchHost> {
  const model = await startFakeAnthropic(claudeTurns);
  const host = await startAgentHost({ anthropicBaseUrl: model.url, log: (line) => process.stdout.write(`  ${line}\n`) });
  const client = await AhpTestClient.connect(host.url, { name: 'bench' });
  const { chat } = await client.createClaudeSession(host.workFolder());
  return {
    model,
    host,
    client,
    chat,
    async stop() {
      await client.close();
      await host.stop();
      await model.close();
    },
  };
}

export async function benchAhp(ui: Ui, benchLog: string, results: ResultTabs, bench: AhpBenchHost): Promise<Figures> {
  const { workbench } = ui;
  const page = workbench.page;
  const { client, chat } = bench;
  process.stdout.write(`ahp: ${SAMPLES} pairs: an agent host's question (Claude's AskUserQuestion) vs the same question from an MCP server…\n`);
  await connectAgentHost(workbench, bench.host.url, undefined, HOST_NAME);
  await workbench.waitForNotification(/Connected to the agent host "bench host"/, 60_000);
  const last = (event: string, type?: string): number => Number(events(benchLog).filter((e) => e.event === event && (type === undefined || e.type === type)).at(-1)?.at);
  const option = COLOUR.options[0].label;
  const ahp: number[] = [];
  const mcp: number[] = [];
  const ratios: number[] = [];

  const ahpOnce = async (): Promise<number> => {
    const shown = stampQuickInput(page, `Claude (${HOST_NAME})`, option);
    shown.catch(() => undefined);
    const before = events(benchLog).length;
    const turnId = client.startTurn(chat, ASK_ONE_PROMPT);
    const shownAt = await shown;
    // The host's action as our client received it, not an earlier one: after this turn started.
    const arrivedAt = await waitUntil('the input request stamped', () => {
      const stamp = events(benchLog).slice(before).filter((e) => e.event === 'ahpAction' && e.type === 'chat/inputRequested').at(-1);
      return stamp ? Number(stamp.at) : undefined;
    }, 10_000);
    await workbench.clickRow(option);
    await client.waitForTurnComplete(chat, turnId, 90_000);
    await workbench.waitForQuickInputHidden();
    return shownAt - arrivedAt;
  };
  const mcpOnce = async (): Promise<number> => {
    const shown = stampQuickInput(page, 'fixture', option);
    shown.catch(() => undefined);
    await runTool(workbench, 'fixture', 'ask_colour_later', String(CONFIRM_AFTER_MS));
    const shownAt = await shown;
    const arrivedAt = last('mcpElicitationReceived');
    await workbench.clickRow(option);
    await ui.nextRecord('ask_colour_later');
    await workbench.waitForQuickInputHidden();
    await results.next();
    return shownAt - arrivedAt;
  };

  for (let i = 0; i < SAMPLES; i++) {
    const [server, host] = await inTurn(i, mcpOnce, ahpOnce);
    mcp.push(server);
    ahp.push(host);
    ratios.push(host / server);
  }
  const ratio = round(median(ratios), 2);
  const interval = medianInterval(ratios);
  return {
    results: {
      ahp: {
        samples: SAMPLES,
        hostMedianMs: round(median(ahp), 1),
        serverMedianMs: round(median(mcp), 1),
        ratio,
        ratioInterval: interval,
        hostSamplesMs: ahp.map((v) => round(v, 1)),
        serverSamplesMs: mcp.map((v) => round(v, 1)),
      },
    },
    rows: [
      {
        measure: `an agent host's question on screen (Claude's AskUserQuestion through VS Code's agent host, a quick pick), from its arrival at our AHP client (${SAMPLES} pairs, the two in turn, median of the ratios)`,
        ours: `${round(median(ahp), 1)} ms`,
        baseline: `${round(median(mcp), 1)} ms (the same question from an MCP server, from our MCP client's receipt)`,
        ratio,
        ...(interval && { interval }),
        target: '<= 1.1',
      },
    ],
  };
}
