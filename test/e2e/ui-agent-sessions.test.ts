/**
 * UI scenarios: agent sessions that come back, and a session panel that reads like a chat, in
 * the real workbench. Three agents: `keeper` (the fixture agent with `--store`: it declares
 * session/load, session/list and session/resume, and keeps its sessions on disk), `plain` (the
 * fixture agent declaring none of it) and `claude` (claude-agent-acp against the fake model,
 * its sessions under its HOME's `.claude/projects`).
 *
 * - keeper: its past sessions in this folder listed with title and time (Open Past Agent
 *   Session…, and the Agents view's Past sessions), one loaded with its conversation replayed
 *   and continued; a session whose panel was closed and whose agent was stopped reopened from
 *   the view and continued; Copy on a code block.
 * - plain: says it keeps no past sessions, instead of a dead entry.
 * - a reload keeps the sessions that were open listed, reopened (loaded) on a click.
 * - claude: its question reads as the question and the answer, an ended tool call is one line
 *   with the permission's answer, the dialog names the command once as title and once as
 *   command; the README's screenshot (docs/images/acp-session.png when
 *   ELICITATION_HOST_DOC_IMAGES=1); stopped, reopened and continued with what came before.
 */
import { strict as assert } from 'node:assert';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type FakeAnthropic, type ModelReply, type ModelTurn, startFakeAnthropic } from '../fixtures/acp/fake-anthropic';
import { claudeSetting, colourAndBuildModel, createAcpHost, fixtureAgent, workFolder } from '../support/acp-harness';
import { ScriptedPrompter } from '../support/scripted-prompter';
import { waitUntil } from '../support/wait';
import { axeViolations } from './axe';
import { FIXTURES, REPO, versionName } from './context';
import { agentsRow, agentsRowInView, formFrame, openAgentsView, reply, send, sessionFrame } from './agent-steps';
import { startUi, type Ui, uiHooks } from './ui-setup';

const DATE_TIME = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}/;

/** The fake model's side: AskUserQuestion for "ask me", Bash for "clean the build" (colourAndBuildModel), a command in a code block, what the person said; else a greeting. */
function model(turn: ModelTurn): ModelReply {
  if (turn.toolResults.length === 0 && turn.userText === 'how do I run the tests?') return { text: 'Run them from the folder:\n\n```sh\nnpm test -- --grep "colour"\n```\n\nThe build folder stays as it is.' };
  if (turn.toolResults.length === 0 && turn.userText === 'what did I say?') return { text: `You said: ${turn.spoken.slice(0, -1).join(' | ')}` };
  return colourAndBuildModel(turn);
}

describe(`UI: agent sessions that come back, and a panel that reads like a chat (VS Code ${versionName()})`, function () {
  this.timeout(8 * 60_000);
  let ui: Ui | undefined;
  let fake: FakeAnthropic;
  let folder: string;
  let store: string;
  let claudeHome: string;

  before(async () => {
    fake = await startFakeAnthropic(model);
    folder = workFolder('eh-sessions-work-');
    writeFileSync(join(folder, 'notes.txt'), 'first line\n');
    mkdirSync(join(folder, 'build'));
    store = workFolder('eh-sessions-store-');
    claudeHome = workFolder('eh-sessions-claude-home-');
    // Two sessions keeper had in this folder before this window: made by the fixture agent itself.
    const acp = createAcpHost(new ScriptedPrompter());
    try {
      const client = await acp.start(fixtureAgent('keeper', ['--store', store]));
      for (const title of ['an earlier session', 'another earlier session']) {
        const session = await client.newSession({ cwd: folder });
        await session.prompt('hello');
        await session.prompt(`title ${title}`);
      }
    } finally {
      await acp.closeAll();
    }
    ui = await startUi(
      'agent-sessions',
      {
        'elicitationHost.agents': {
          keeper: { command: process.execPath, args: [join(FIXTURES, 'acp-agent.js'), '--store', store] },
          plain: { command: process.execPath, args: [join(FIXTURES, 'acp-agent.js')] },
          // As root Claude Code starts only with IS_SANDBOX=1 (claudeSetting sets it); a fresh HOME keeps the machine's own set-up out.
          claude: claudeSetting(fake.url, claudeHome),
        },
      },
      {},
      folder,
    );
    await ui.workbench.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  });
  uiHooks(
    () => ui,
    () => {
      void fake?.close();
      for (const dir of [folder, store, claudeHome]) rmSync(dir, { recursive: true, force: true });
    },
  );

  /** A new session with a fixture agent: its session form (the proposal's) submitted as it is. */
  async function newFixtureSession(agent: string) {
    const { workbench } = ui!;
    await workbench.runCommand('Elicitation Host: New Agent Session…');
    await workbench.waitForQuickInputTitle('New Agent Session');
    await workbench.pick(agent);
    const options = await formFrame(workbench, `${agent}: options for the new session (all optional)`);
    await options.locator('button', { hasText: 'Submit' }).click();
  }

  /** Clicks a row of the Agents view; for a collapsed one, this opens it. */
  async function clickRow(text: string | RegExp): Promise<void> {
    const row = await agentsRowInView(ui!.workbench, text);
    await row.click();
  }

  /** Opens a row of the Agents view that is collapsed (VS Code keeps a row as the person left it). */
  async function expandRow(text: string | RegExp): Promise<void> {
    const row = await agentsRowInView(ui!.workbench, text);
    if ((await row.getAttribute('aria-expanded')) !== 'false') return;
    // A click toggles, and VS Code may be opening the row itself (its agent's sessions just
    // changed): a click then closed it once in CI. Selected, the Right key only opens.
    await row.click();
    await waitUntil(`${String(text)} to open in the Agents view`, async () => {
      if ((await row.getAttribute('aria-expanded')) === 'true') return true;
      await ui!.workbench.page.keyboard.press('ArrowRight');
      return false;
    }, 10_000);
  }

  /** Stops an agent from its row's own button. */
  async function stopAgent(agent: string): Promise<void> {
    const row = agentsRow(ui!.workbench, new RegExp(`^${agent}`));
    await row.hover();
    await row.locator('.action-label[aria-label^="Stop Agent"]').click();
    await ui!.workbench.waitForViewRows(/^Agents/, (rows) => rows.some((r) => new RegExp(`^${agent}[\\s\\S]*ended`).test(r)), 30_000);
  }

  it('keeper: its past sessions listed with title and time; one loaded with its conversation and continued; a closed one reopened after its agent stopped', async () => {
    const { workbench } = ui!;
    await openAgentsView(workbench);
    await workbench.waitForViewRows(/^Agents/, (rows) => rows.some((r) => /^keeper[\s\S]*not started/.test(r)));
    // Not running yet: its Past sessions offer to start it, and do not start it by themselves.
    await expandRow(/^keeper/);
    await expandRow(/^Past sessions/);
    await clickRow(/^Start keeper to list its past sessions/);
    // Open Past Agent Session…: the list, newest first, with title and time.
    await workbench.waitForQuickInputTitle('Past sessions of keeper', 30_000);
    const listed = await workbench.quickPickRows();
    assert.ok(/^another earlier session[\s\S]*/.test(listed[0]) && DATE_TIME.test(listed[0]), `newest first, with its time: ${listed.join(' | ')}`);
    assert.ok(listed.some((r) => r.startsWith('an earlier session')), listed.join(' | '));
    await workbench.screenshot('sessions-past-pick');
    await workbench.pick('an earlier session');
    let frame = await sessionFrame(workbench, 'keeper', { title: 'an earlier session' });
    // The conversation replayed into the panel, then it goes on.
    let text = await reply(frame, /Reopened: the conversation so far/);
    assert.match(text, /^You\s+hello[\s\S]*Hello from the fixture\.[\s\S]*title: an earlier session/, `the earlier conversation, in order: ${text}`);
    await send(frame, 'recall');
    await reply(frame, 'recall: ["hello","title an earlier session"]');

    // The Agents view's Past sessions, now that keeper runs: the other one, with title and time; a click reopens it.
    const rows = await workbench.waitForViewRows(/^Agents/, (r) => r.some((row) => row.startsWith('another earlier session')));
    const past = rows.find((row) => row.startsWith('another earlier session')) ?? '';
    assert.match(past, DATE_TIME, `with its time: ${rows.join(' | ')}`);
    await workbench.screenshot('sessions-past-in-view');
    await clickRow(/^another earlier session/);
    frame = await sessionFrame(workbench, 'keeper', { title: 'another earlier session' });
    await reply(frame, /Reopened: the conversation so far/);
    await send(frame, 'recall');
    await reply(frame, 'recall: ["hello","title another earlier session"]');

    // A new session, with a code block to copy.
    await newFixtureSession('keeper');
    // Untitled yet: named for its folder.
    frame = await sessionFrame(workbench, 'keeper', { title: basename(folder) });
    await send(frame, 'title copy and go on');
    await reply(frame, 'title: copy and go on');
    await send(frame, 'code');
    await reply(frame, 'npm test -- --grep "fixture"');
    await frame.getByRole('button', { name: 'Copy code' }).click();
    await waitUntil('the code in the clipboard', async () => (await workbench.page.evaluate(() => navigator.clipboard.readText()).catch(() => '')) === 'npm test -- --grep "fixture"', 10_000);

    // The panels closed (which ends their sessions: nothing runs) and the agent stopped: the session is listed as closed, a click reopens it (a new process loads it) and it goes on.
    await workbench.runCommand('View: Close All Editors');
    await stopAgent('keeper');
    const closed = await workbench.waitForViewRows(/^Agents/, (r) => r.some((row) => /^copy and go on[\s\S]*closed · click to reopen/.test(row)), 20_000);
    assert.ok(closed.some((row) => /^copy and go on[\s\S]*closed · click to reopen/.test(row)), `closed, to be reopened: ${closed.join(' | ')}`);
    await clickRow(/^copy and go on/);
    frame = await sessionFrame(workbench, 'keeper', { title: 'copy and go on' });
    text = await reply(frame, /Reopened: the conversation so far/);
    assert.match(text, /npm test -- --grep "fixture"/, 'the code block came back with the conversation');
    await send(frame, 'recall');
    await reply(frame, 'recall: ["title copy and go on","code"]');
    // The other sessions closed with their panels stay closed, to be reopened, while keeper runs again.
    const ended = await workbench.waitForViewRows(/^Agents/, (r) => r.some((row) => /^an earlier session[\s\S]*closed · click to reopen/.test(row)), 20_000);
    assert.ok(ended.some((row) => /^an earlier session[\s\S]*closed · click to reopen/.test(row)), `still closed, to be reopened: ${ended.join(' | ')}`);
  });

  it('plain declares none of it and says so; after a reload the sessions that were open are listed, and one reopens (loaded) on a click', async () => {
    const { workbench } = ui!;
    await newFixtureSession('plain');
    const frame = await sessionFrame(workbench, 'plain');
    await send(frame, 'hello');
    await reply(frame, 'Hello from the fixture.');
    const none = 'plain does not offer its past sessions: it declares none of session/list, session/load and session/resume';
    await workbench.waitForViewRows(/^Agents/, (r) => r.some((row) => row.startsWith(none)), 20_000);
    await workbench.screenshot('sessions-plain-says-none');

    await workbench.page.reload();
    await workbench.page.locator('.activitybar [aria-label^="Agent Inputs"]').first().waitFor({ timeout: 60_000 });
    await openAgentsView(workbench);
    const open = (r: string[], title: string): boolean => r.some((row) => row.startsWith(title) && row.includes('open before · click to reopen'));
    const rows = await workbench.waitForViewRows(/^Agents/, (r) => open(r, 'copy and go on') && open(r, 'an earlier session') && open(r, 'another earlier session') && r.some((row) => row.startsWith(none)), 60_000);
    assert.ok(rows.some((row) => /^keeper[\s\S]*not started/.test(row)), `listed, not live: ${rows.join(' | ')}`);
    assert.ok(!rows.some((row) => row.startsWith('fix the tests')), `plain's session, which cannot come back, is not listed: ${rows.join(' | ')}`);
    await workbench.screenshot('sessions-after-reload');
    await clickRow(/^copy and go on/);
    const again = await sessionFrame(workbench, 'keeper', { title: 'copy and go on' });
    await reply(again, /Reopened: the conversation so far/);
    await send(again, 'recall');
    await reply(again, 'recall: ["title copy and go on","code","recall"]');
  });

  it('claude: the question and its answer, a tool call on one line with the answer to its permission, Copy; stopped, reopened and continued', async () => {
    const { workbench } = ui!;
    await openAgentsView(workbench);
    await workbench.runCommand('Elicitation Host: New Agent Session…');
    await workbench.waitForQuickInputTitle('New Agent Session');
    await workbench.pick('claude');
    let frame = await sessionFrame(workbench, 'claude');
    await waitUntil('Manual mode', async () => (await frame.locator('select[data-option-id="__mode"]').inputValue().catch(() => '')) === 'default', 60_000);
    await send(frame, 'hello');
    await reply(frame, 'Hello from the fake model.', 90_000);

    await send(frame, 'ask me');
    const form = await formFrame(workbench, 'Which colour?');
    await form.locator('[data-question-id="question_0"] label', { hasText: 'Blue' }).click();
    await form.locator('button', { hasText: 'Submit' }).click();
    await reply(frame, /Tool said: .*Blue/, 90_000);
    const question = frame.locator('.entry.question');
    assert.deepEqual((await question.innerText()).split('\n'), ['Which colour?', 'Blue'], 'the question and the answer');
    assert.doesNotMatch(await frame.locator('#transcript').innerText(), /"questions"|"multiSelect"/, "the question's raw input is not shown");

    await send(frame, 'clean the build');
    await workbench.dialog.waitFor({ timeout: 90_000 });
    const dialog = await workbench.dialog.innerText();
    assert.equal(dialog.split('rm -rf build').length - 1, 2, `the dialog names the command once as the title and once as the command: ${dialog}`);
    await workbench.clickDialogButton('No');
    await reply(frame, /Tool failed:/, 90_000);
    const bash = frame.locator('.entry.tool', { hasText: 'rm -rf build' });
    await waitUntil('the Bash call ended', async () => /failed/i.test(await bash.locator('.tool-status').innerText()), 30_000);
    assert.deepEqual(await bash.locator('.tool-status, .tool-title, .tool-permission').allInnerTexts(), ['FAILED', 'rm -rf build', 'you answered “No”']);
    assert.equal(await bash.locator('.tool-body').isVisible(), false, 'an ended call is one line, opened on demand');

    await send(frame, 'how do I run the tests?');
    await reply(frame, 'The build folder stays as it is.', 90_000);
    // The README's picture: a Claude session as the panel shows it, beside the Agents view, once its turn has ended and nothing waits.
    await waitUntil('the turn to end', () => frame.locator('#send').isEnabled(), 90_000);
    const pending = await workbench.waitForViewRows(/^Pending Inputs/, (rows) => rows.length === 0);
    assert.deepEqual(pending, [], 'nothing waits once the permission is answered');
    await workbench.page.mouse.move(0, 0);
    const shot = await workbench.screenshot('acp-session');
    if (process.env.ELICITATION_HOST_DOC_IMAGES === '1') copyFileSync(shot, join(REPO, 'docs/images/acp-session.png'));
    await frame.getByRole('button', { name: 'Copy code' }).click();
    await waitUntil('the code in the clipboard', async () => (await workbench.page.evaluate(() => navigator.clipboard.readText()).catch(() => '')) === 'npm test -- --grep "colour"', 10_000);
    assert.deepEqual(await axeViolations(frame), [], 'axe on the session page with a question, a tool call and a code block');

    // Stopped, its panel reopened from the view: the conversation replayed, and the model has it.
    await stopAgent('claude');
    await expandRow(/^claude/);
    const title = (await frame.locator('#title').innerText()).replace(/^claude · /, '');
    await clickRow(new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*ended · click to reopen`));
    // The ended session's panel gives way to the reopened one (same title).
    const ended = frame;
    await waitUntil('the ended panel to close', () => Promise.resolve(ended.isDetached()), 90_000);
    frame = await sessionFrame(workbench, 'claude', { title });
    const text = await reply(frame, /Reopened: the conversation so far/, 90_000);
    assert.match(text, /Hello from the fake model\.[\s\S]*npm test/, `replayed: ${text}`);
    await send(frame, 'what did I say?');
    await reply(frame, /You said: hello \| ask me \| clean the build \| how do I run the tests\?/, 90_000);
    await workbench.screenshot('sessions-claude-reopened');
  });
});
