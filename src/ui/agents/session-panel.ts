/**
 * One ACP session in a webview panel (the session page, on the form page's stack): its
 * transcript as the agent streams it, the mode and options with their current values, and
 * the prompt box. What the page sends is checked (parseSessionPageMessage) before anything is
 * done with it. A reply streams to the page as what each chunk adds, gathered into one message
 * per frame's time (page-batches.ts); past its cap it goes to a file the person opens whole
 * (whole-replies.ts). Close Session ends the session and lets go of everything it held;
 * closing the panel does the same once no turn runs (a running turn goes on, and the Agents
 * view says the session ends with it; reopened meanwhile, it stays). Questions and permissions
 * are not asked here but in our prompts, like every other question; the page says when the
 * agent waits for one.
 *
 * Why our own panel and not VS Code's Chat view: in VS Code 1.139 without a signed-in
 * Copilot a chat participant's request fails ("Language model unavailable") unless the
 * extension also registers a language model of its own, and VS Code 1.103 (the oldest we
 * support) has no stable API for that (see docs/acp.md).
 */
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { AgentSession } from '../../acp/agent-session';
import { checkFileAccess, FileAccessError, type FileTarget } from '../../acp/file-access';
import type { SessionEvent } from '../../acp/session-events';
import type { InputStore } from '../../elicitation/store';
import { Listeners } from '../../base/listeners';
import { ENTRIES_SHOWN, parseSessionPageMessage, type SessionHeader, type SessionHostMessage, type SessionOption } from '../../shared/session-protocol';
import { reportFailure } from '../notify';
import { PageHost } from '../webview/page-host';
import { PageBatches } from './page-batches';
import { sessionPageHtml } from './session-page';
import { MAX_SENT_TEXT, type TranscriptChange, Transcript } from './transcript';
import type { WholeReplyDocuments } from './whole-reply-documents';
import { WholeReplyFiles } from './whole-replies';
import { errorMessage } from '../../base/error-message';

/** Said in the header when the current mode is one where the agent acts without asking. */
const NON_ASKING_MODES = /^(auto|bypass ?permissions|bypasspermissions|yolo|full ?access)$/i;

export interface SessionPanelDeps {
  readonly extensionUri: vscode.Uri;
  readonly store: InputStore;
  readonly log: vscode.LogOutputChannel;
  /** The agent process ended: the session takes no more prompts. */
  readonly agentEnded: () => boolean;
  /** Where the session's whole replies are written (a folder of its own is made there). */
  readonly wholeReplies: string;
  readonly wholeDocuments: WholeReplyDocuments;
  /** The session ended here (Close Session, or its panel closed with no turn running): the agent is told and it is let go of. */
  readonly closed: (panel: SessionPanel) => void;
}

export class SessionPanel implements vscode.Disposable {
  private readonly page = new PageHost<SessionHostMessage>();
  private readonly posts = new PageBatches((message) => void this.page.post(message));
  private readonly whole: WholeReplyFiles;
  readonly transcript: Transcript;
  /** How many entries the page was last told the transcript keeps. */
  private keptSent = -1;
  /** The panel was closed while a turn ran: the session ends with the turn. */
  private endsWithTurn = false;
  private ended = false;
  /** The header changed (mode, title, a turn's state): the Agents view shows it. */
  readonly onDidChange = new Listeners<void>();
  private readonly unsubscribe: Array<() => void> = [];
  private waiting = false;
  /** When the person last sent a prompt or a turn ended (what a reload's list says). */
  lastActivity: number | undefined;

  constructor(
    readonly session: AgentSession,
    private readonly deps: SessionPanelDeps,
    /** While a past session is being reopened (its conversation replayed): why the prompt box waits. */
    private reopening?: string,
  ) {
    this.whole = new WholeReplyFiles(deps.wholeReplies, (message) => deps.log.warn(message));
    // An entry the transcript lets go of takes its tool call out of the session too.
    this.transcript = new Transcript(session.updates, this.whole);
    this.unsubscribe.push(
      session.events.add((event) => this.onEvent(event)),
      deps.store.subscribe((state) => {
        // The agent's own question, or a question of a server it was given, in this session.
        const waiting = state.requests.some(
          (r) =>
            r.status === 'open' &&
            r.request.source.session === session.label &&
            ((r.request.source.requester === 'agent' && r.request.source.server === session.agentName) || r.request.source.agent === session.agentName),
        );
        if (waiting !== this.waiting) {
          this.waiting = waiting;
          this.postHeader();
        }
      }),
    );
  }

  /** Shows the panel (making it again if it was closed). */
  reveal(): void {
    if (this.endsWithTurn) {
      // Reopened before its turn ended: the session stays.
      this.endsWithTurn = false;
      this.onDidChange.fire();
    }
    if (this.page.panel) {
      this.page.panel.reveal(undefined, false);
      return;
    }
    const root = vscode.Uri.joinPath(this.deps.extensionUri, 'dist', 'webview');
    // Kept alive while hidden (the page host does it): the transcript and a half-typed prompt survive switching tabs.
    this.page.open({
      viewType: 'elicitationHost.agentSession',
      title: this.tabTitle(),
      showOptions: vscode.ViewColumn.Active,
      localResourceRoots: [root],
      iconPath: vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'agent-inputs.svg'),
      html: (webview, nonce) =>
        sessionPageHtml({
          cspSource: webview.cspSource,
          nonce,
          script: readFileSync(vscode.Uri.joinPath(root, 'session.js').fsPath, 'utf8'),
          styles: readFileSync(vscode.Uri.joinPath(root, 'session-styles.css').fsPath, 'utf8'),
        }),
      onMessage: (raw) => this.onMessage(raw),
      onDispose: () => this.panelClosed(),
    });
  }

  /** The panel's page is gone: what waits for it is dropped; the session ends now, or with its turn. */
  private panelClosed(): void {
    this.posts.drop();
    if (this.ended) return;
    if (!this.session.running) {
      this.close();
      return;
    }
    this.endsWithTurn = true;
    this.onDidChange.fire();
  }

  /** The panel was closed while a turn ran, and the session ends when that turn does (what the Agents view says). */
  get endingWithTurn(): boolean {
    return this.endsWithTurn;
  }

  /** Close Session: the session ends (the agent is told), its panel closes, and everything it held is let go of. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.endsWithTurn = false;
    this.release();
    this.deps.closed(this);
  }

  get visible(): boolean {
    return this.page.panel !== undefined;
  }

  /** The person's prompt: shown, then sent; the turn's end is an event like any other. */
  async send(text: string): Promise<void> {
    this.lastActivity = Date.now();
    this.show(this.transcript.prompt(text));
    const turn = this.session.prompt(text);
    this.postHeader();
    try {
      await turn;
    } catch (error) {
      this.show(this.transcript.notice(`The turn failed: ${errorMessage(error)}`, 'error'));
    } finally {
      if (this.endsWithTurn) this.close();
      else this.postHeader();
    }
  }

  /** The reopened session is back: said once (with whether the conversation came with it), and the prompt box opens. */
  reopened(replayed: boolean): void {
    this.reopening = undefined;
    const name = this.session.agentName;
    const text = replayed
      ? `Reopened: the conversation so far, as ${name} replayed it. It goes on from here.`
      : `Resumed: ${name} goes on from where the session was, but does not replay the conversation (it declares session/resume, not session/load).`;
    this.show(this.transcript.notice(text));
    this.postHeader();
  }

  /** The agent went away: said once, and the prompt box closes. */
  agentEnded(description: string): void {
    this.show(this.transcript.notice(description, 'warning'));
    this.postHeader();
  }

  /** A change of the transcript, to the page: streamed text as what it added, anything else whole. */
  private show(change: TranscriptChange): void {
    if (change.kind === 'append') {
      this.posts.post({ type: 'append', id: change.id, text: change.text, ...(change.notShown !== undefined && { notShown: change.notShown }) });
      return;
    }
    this.posts.post({ type: 'entry', entry: change, ...(this.transcript.isNewest(change.id) && { last: true }) });
    const kept = this.transcript.kept;
    if (kept !== this.keptSent) {
      this.keptSent = kept;
      this.posts.post({ type: 'kept', kept });
    }
  }

  private onEvent(event: SessionEvent): void {
    if (event.type === 'turn-end') this.lastActivity = Date.now();
    const change = this.transcript.apply(event);
    if (change) this.show(change);
    if (event.type === 'mode' || event.type === 'config-options' || event.type === 'title') this.postHeader();
  }

  private onMessage(raw: unknown): void {
    const message = parseSessionPageMessage(raw);
    if (!message) {
      this.deps.log.warn(`Ignored a malformed message from the session page of ${this.session.agentName}`);
      return;
    }
    switch (message.type) {
      case 'ready': {
        this.page.pageReady();
        // The newest entries only: the page asks for earlier ones when the person wants them.
        this.keptSent = this.transcript.kept;
        this.posts.replaceAll({ type: 'reset', header: this.header(), entries: this.transcript.newest(ENTRIES_SHOWN, MAX_SENT_TEXT).entries, kept: this.keptSent });
        break;
      }
      case 'earlier':
        this.posts.post({ type: 'earlier', before: message.before, entries: this.transcript.before(message.before, message.count, MAX_SENT_TEXT).entries });
        break;
      case 'openWhole':
        reportFailure(this.openWhole(message.id));
        break;
      case 'closeSession':
        this.close();
        break;
      case 'prompt':
        if (this.session.running || this.reopening !== undefined || this.deps.agentEnded()) return;
        reportFailure(this.send(message.text));
        break;
      case 'cancel':
        this.session.cancel();
        break;
      case 'setOption':
        reportFailure(this.setOption(message.optionId, message.value));
        break;
      case 'openFile':
        reportFailure(this.openFile(message.path, message.line));
        break;
      case 'copy':
        reportFailure(Promise.resolve(vscode.env.clipboard.writeText(message.text)));
        break;
      case 'cspViolation':
        this.deps.log.error(`The session page broke its Content-Security-Policy: ${message.directive} ${message.blockedUri}`);
        break;
    }
  }

  private async setOption(optionId: string, value: string): Promise<void> {
    try {
      if (optionId === MODE_OPTION) await this.session.setMode(value);
      else {
        const option = this.session.configOptions.find((o) => o.id === optionId);
        await this.session.setConfigOption(optionId, option?.type === 'boolean' ? value === 'true' : value);
      }
    } finally {
      // The page shows what the agent holds now, whether it took the change or not.
      this.postHeader();
    }
  }

  /**
   * A file the agent named: opened only by the rule of the agent's own reads (file-access.ts:
   * `..` and links resolved, inside the session's directories), and opened as the real file it leads to.
   */
  private async openFile(path: string, line?: number): Promise<void> {
    let target: FileTarget;
    try {
      target = await checkFileAccess(path, this.session.directories, 'read');
    } catch (error) {
      // The same words the agent gets: the buttons open what the agent may read, no more.
      if (error instanceof FileAccessError) throw new Error(`${path} was not opened: ${error.why}`, { cause: error });
      throw error;
    }
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(target.real));
    const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
    await vscode.window.showTextDocument(document, { preview: true, selection: new vscode.Range(position, position) });
  }

  /** Open Whole Reply: the whole of an entry past its cap, read-only in an editor. */
  private async openWhole(id: string): Promise<void> {
    const path = await this.whole.written(id);
    if (!path) throw new Error('The whole of that reply is no longer kept: the session let go of its entry.');
    await this.deps.wholeDocuments.open(path, `${this.session.agentName} reply ${id.replace(/\D/g, '')}`);
  }

  private tabTitle(): string {
    return `${this.session.agentName}: ${this.session.label}`;
  }

  header(): SessionHeader {
    const session = this.session;
    const modes = session.modes;
    const mode: SessionOption | undefined = modes && {
      id: MODE_OPTION,
      name: 'Mode',
      current: modes.current.id,
      options: modes.available.map((m) => ({ value: m.id, name: m.name, ...(m.description && { description: m.description }) })),
    };
    const options = session.configOptions
      // The mode is shown once: from the session's modes where there are some.
      .filter((o) => !(modes && o.category === 'mode'))
      .map((o) => ({
        id: o.id,
        name: o.name,
        current: String(o.currentValue),
        options: o.type === 'boolean' ? [{ value: 'true', name: 'On' }, { value: 'false', name: 'Off' }] : o.options.map((v) => ({ value: v.value, name: v.name, ...(v.description && { description: v.description }) })),
      }));
    const ended = this.deps.agentEnded();
    const current = modes?.current;
    return {
      agent: session.agentName,
      ...(session.label && { title: session.label }),
      cwd: session.cwd,
      servers: session.servers.given,
      ...(session.servers.note !== undefined && { serversNote: session.servers.note }),
      ...(mode && { mode }),
      ...(current && (NON_ASKING_MODES.test(current.name.trim()) || NON_ASKING_MODES.test(current.id)) && {
        modeWarning: `${current.name}: ${session.agentName} acts without asking you first in this mode. Choose another mode to be asked.`,
      }),
      options,
      state: ended ? 'closed' : this.waiting ? 'waiting' : session.running ? 'running' : 'idle',
      ...(this.reopening !== undefined && !ended && { disabledReason: this.reopening }),
    };
  }

  /** The header, the tab's title (the session's label: its title, else the person's first words) and the Agents view. */
  private postHeader(): void {
    this.posts.post({ type: 'header', header: this.header() });
    const panel = this.page.panel;
    if (panel && panel.title !== this.tabTitle()) panel.title = this.tabTitle();
    this.onDidChange.fire();
  }

  /** Lets go of the page, the listeners and the whole replies' files. */
  private release(): void {
    this.posts.drop();
    for (const off of this.unsubscribe.splice(0)) off();
    this.page.dispose();
    this.whole.dispose();
  }

  /** The window closes: everything goes, the session with its agent. */
  dispose(): void {
    this.ended = true;
    this.release();
  }
}

/** The page's select for the session's modes (config options keep their own ids). */
export const MODE_OPTION = '__mode';
