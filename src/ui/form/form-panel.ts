/**
 * The room `src/ui/form/`: the Agent Input panel: this file (the webview panel's host, on
 * the page host every panel of ours shares: ui/webview/page-host.ts), `form-page` (its HTML)
 * and `form-verdicts` (what the host makes of the page's messages, which it does not trust).
 * The page itself is `webview/`.
 *
 * The Agent Input panel: one webview panel that shows the current form. The page is kept
 * alive; the next form re-renders it instead of creating a new webview. Closing the panel
 * cancels nothing: the request stays pending, and reopening it restores every draft.
 * Only Submit, Decline, Cancel, the server or a timeout end a request. When nothing waits
 * and no call is left that could ask again, the tab closes (a call's next form reuses the
 * page meanwhile), unless the person pinned it. No timer: it closes when the call ends.
 */
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { AskOptions, Outcome } from '../../elicitation/broker';
import type { InputRequest, RequestSource } from '../../elicitation/request';
import { findRequest, type InputStore } from '../../elicitation/store';
import { fromAnswerValue, ownAnswer } from '../../elicitation/validation';
import { type DraftValue, type FormAsker, type FormView, type HostMessage, parsePageMessage, type PageMessage } from '../../shared/protocol';
import { formPageHtml } from './form-page';
import { isAboutShownForm, judgeSubmission, storableDraft } from './form-verdicts';
import type { NativePrompter } from '../prompts/native-prompter';
import { tellRequestEnded } from '../prompts/native-prompter';
import type { FormSurface } from '../prompts/prompter';
import type { Timings } from '../../mcp/ports';
import { holdWhileDrawing } from '../after-prompts';
import { PageHost } from '../webview/page-host';

interface FormJob {
  readonly request: InputRequest;
  options: AskOptions;
  readonly resolve: (outcome: Outcome) => void;
  /** When the broker handed it over (the benchmark's breakdown). */
  readonly askedAt: number;
}

/** The calls in flight, which may ask again (the server manager). */
export interface CallsInFlight {
  count(): number;
  /** Adds a listener for a call starting or ending; returns the function that removes it. */
  onChange(listener: () => void): () => void;
}

export class FormPanel implements FormSurface, vscode.Disposable {
  private readonly page = new PageHost<HostMessage>();
  private current: FormJob | undefined;
  private readonly waiting: FormJob[] = [];
  /** What the person typed, as typed (also text that does not parse yet), per request. */
  private readonly rawDrafts = new Map<string, Map<string, DraftValue>>();
  private readonly errors = new Map<string, Record<string, string>>();
  /** The request whose form the page was last given: the only one it may answer. */
  private shownRequestId: string | undefined;
  /** Set while the panel waits for the last call to end before it closes. */
  private stopWaitingForCalls: (() => void) | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly store: InputStore,
    private readonly native: NativePrompter,
    private readonly log: vscode.LogOutputChannel,
    private readonly calls: CallsInFlight,
    /** Timings for `npm run bench`: set only in the benchmark build. */
    private readonly timings?: Timings,
  ) {
    // A draft set elsewhere (the extension that asked, another client of an agent host) shows in
    // the open form; the page's own is on the page already. The store decided whether it may.
    this.unsubscribe = store.subscribe((_state, action) => {
      if (action.type !== 'answerChanged' || action.origin === 'page' || action.requestId !== this.shownRequestId || this.current?.request.id !== action.requestId) return;
      this.rawDrafts.get(action.requestId)?.delete(action.questionId);
      const { answer } = action;
      this.page.post({ type: 'draft', requestId: action.requestId, questionId: action.questionId, value: answer && answer.state !== 'skipped' ? fromAnswerValue(answer.value) : null });
    });
  }

  ask(request: InputRequest, options: AskOptions): Promise<Outcome> {
    return new Promise<Outcome>((resolve) => {
      const job: FormJob = { request, options, resolve, askedAt: Date.now() };
      if (options.errors?.length) {
        // Asked again after a refusal: show why, beside each field.
        this.errors.set(request.id, Object.fromEntries(options.errors.map((e) => [e.questionId, e.message])));
      }
      options.signal.addEventListener('abort', () => this.ended(job), { once: true });
      if (options.errors?.length) {
        // The same request, refused: it stays in front of the person.
        if (this.current) this.waiting.unshift(this.current);
        this.current = job;
        this.show(true);
      } else if (!this.current) {
        this.current = job;
        this.show(false);
      } else {
        this.waiting.push(job);
      }
    });
  }

  /** Shows this request in the panel (reopening the panel if it was closed). */
  reveal(requestId: string): boolean {
    if (this.current?.request.id === requestId) {
      this.show(true);
      return true;
    }
    const index = this.waiting.findIndex((j) => j.request.id === requestId);
    if (index < 0) return false;
    const [job] = this.waiting.splice(index, 1);
    this.putInFront(job);
    return true;
  }

  /** Puts this request in front (the one shown waits first in line), drafts and all. */
  private putInFront(job: FormJob): void {
    if (this.current) this.waiting.unshift(this.current);
    this.current = job;
    this.show(true);
  }

  private show(takeFocus: boolean): void {
    this.keepOpen();
    const panel = this.page.panel;
    if (!panel) {
      this.openPanel(takeFocus);
      return; // the page renders the current form once it says it is ready
    }
    if (takeFocus || !panel.visible) panel.reveal(undefined, !takeFocus);
    this.renderCurrent();
  }

  private openPanel(takeFocus: boolean): void {
    const root = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    this.page.open({
      viewType: 'elicitationHost.agentInput',
      title: 'Agent Input',
      showOptions: { viewColumn: vscode.ViewColumn.Active, preserveFocus: !takeFocus },
      localResourceRoots: [root, vscode.Uri.joinPath(this.extensionUri, 'media')],
      iconPath: vscode.Uri.joinPath(this.extensionUri, 'media', 'agent-inputs.svg'),
      html: (webview, nonce) => {
        // The status bar, badge and Pending Inputs wait for the page: drawn beside it they slow it.
        this.pageDrawn = holdWhileDrawing();
        const initialForm = this.currentView();
        const checksScript = webview.asWebviewUri(vscode.Uri.joinPath(root, 'checks.js')).toString();
        this.shownRequestId = initialForm?.requestId;
        return formPageHtml({ cspSource: webview.cspSource, nonce, ...this.pageAssets(root), checksScript, ...(initialForm && { initialForm }) });
      },
      onMessage: (raw) => this.onMessage(raw),
      // Closing is not cancelling: the request stays pending, its drafts in the store.
      onDispose: () => this.pageDrawn?.(),
    });
  }

  /** Releases the secondary signs held while a new panel's page is drawn. */
  private pageDrawn: (() => void) | undefined;

  private assets: { script: string; styles: string } | undefined;

  /** The built page, read once. */
  private pageAssets(root: vscode.Uri): { script: string; styles: string } {
    this.assets ??= {
      script: readFileSync(vscode.Uri.joinPath(root, 'main.js').fsPath, 'utf8'),
      styles: readFileSync(vscode.Uri.joinPath(root, 'styles.css').fsPath, 'utf8'),
    };
    return this.assets;
  }

  private renderCurrent(): void {
    const form = this.currentView();
    if (this.page.post(form ? { type: 'render', form } : { type: 'idle' })) this.shownRequestId = form?.requestId;
  }

  /** The current request as the page renders it: drafts restored, refusals beside their fields. */
  private currentView(): FormView | undefined {
    const job = this.current;
    if (!job) return undefined;
    const { request } = job;
    const stored = findRequest(this.store.state, request.id)?.answers ?? {};
    const drafts: Record<string, DraftValue> = {};
    for (const q of request.questions) {
      const raw = this.rawDrafts.get(request.id)?.get(q.id);
      const answer = ownAnswer(stored, q.id);
      const value = raw ?? (answer && answer.state !== 'skipped' ? fromAnswerValue(answer.value) : undefined);
      if (value !== undefined) Object.defineProperty(drafts, q.id, { value, enumerable: true });
    }
    const errors = this.errors.get(request.id);
    return {
      requestId: request.id,
      asker: askerOf(request.source),
      message: request.message,
      questions: request.questions,
      drafts,
      ...(errors && { errors }),
    };
  }

  private onMessage(raw: unknown): void {
    const message = parsePageMessage(raw);
    if (!message) {
      // Only its type: the rest may hold what the person typed (a secret, say).
      const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
      this.log.warn(`The form page sent a message that is not in the protocol; ignored (type: ${JSON.stringify(type)?.slice(0, 60) ?? 'none'})`);
      return;
    }
    if (message.type === 'ready') {
      this.page.pageReady();
      // With nothing to show the page is drawn now; a form is drawn once it is on screen ('shown').
      if (!this.current) this.pageDrawn?.();
      // The page may already show the current form (it came inside the page).
      if (!this.current || message.showing !== this.current.request.id) this.renderCurrent();
      return;
    }
    if (message.type === 'cspViolation') {
      this.log.warn(`Form page CSP violation: ${message.directive} blocked ${message.blockedUri} ${message.sample}`);
      return;
    }
    // On screen (VS Code shows a new page's frame at its load event), whichever form it drew: the
    // held signs may draw (a form ended before it was drawn would otherwise hold them to the cap).
    if (message.type === 'shown') this.pageDrawn?.();
    const job = this.current;
    // About a form that is no longer the current one (stale), or one this page was never shown (made up): ignored.
    if (!job || !isAboutShownForm(message.requestId, job.request.id, this.shownRequestId)) return;
    this.handle(job, message);
  }

  private handle(job: FormJob, message: Exclude<PageMessage, { type: 'ready' | 'cspViolation' }>): void {
    const { request } = job;
    switch (message.type) {
      case 'shown':
        this.timings?.({ event: 'formShown', requestId: request.id, at: message.at, focusedAt: message.focusedAt, scriptStartedAt: message.scriptStartedAt, renderStartedAt: message.renderStartedAt, askedAt: job.askedAt, createdAt: request.createdAt });
        return;
      case 'draft': {
        const question = request.questions.find((q) => q.id === message.questionId);
        if (!question) return;
        let drafts = this.rawDrafts.get(request.id);
        if (!drafts) this.rawDrafts.set(request.id, (drafts = new Map()));
        if (message.value === null) drafts.delete(question.id);
        else drafts.set(question.id, message.value);
        // Only well-typed drafts enter the store; the raw text stays here for the panel.
        const draft = storableDraft(question, message.value);
        if (draft.store) this.store.dispatch({ type: 'answerChanged', requestId: request.id, questionId: question.id, ...(draft.answer && { answer: draft.answer }), origin: 'page' });
        return;
      }
      case 'submit': {
        // The page validated already; the host does not take its word for it.
        const verdict = judgeSubmission(request.questions, message.values);
        if (!verdict.ok) {
          this.log.warn(`Refused a submission of "${request.message.slice(0, 80)}" the form page should not have sent: ${Object.values(verdict.refusals).join('; ')}`);
          this.errors.set(request.id, { ...verdict.refusals });
          this.renderCurrent();
          return;
        }
        this.complete(job, { action: 'accept', answers: verdict.answers });
        return;
      }
      case 'decline':
      case 'cancel':
        this.complete(job, { action: message.type });
        return;
      case 'stepByStep':
        // The same drafts (the store's), asked one at a time in the quick input; the panel moves
        // on. Text typed here that did not parse stays behind: the steps would not show it.
        this.rawDrafts.delete(request.id);
        this.next();
        void this.native.askStepByStep(request, job.options).then((outcome) => {
          if (outcome !== 'form') job.resolve(outcome);
          else if (!job.options.signal.aborted) this.putInFront(job);
        });
        return;
    }
  }

  private complete(job: FormJob, outcome: Outcome): void {
    this.rawDrafts.delete(job.request.id);
    this.errors.delete(job.request.id);
    this.next();
    job.resolve(outcome);
  }

  /** The current request ended one way or another: the next waiting form takes the panel. */
  private next(): void {
    this.current = this.waiting.shift();
    if (this.current) {
      this.show(false);
    } else if (this.page.panel) {
      this.renderCurrent();
      this.closeWhenCallsEnd();
    }
  }

  /** Nothing waits: the tab closes once no call is left that could ask again, unless pinned. */
  private closeWhenCallsEnd(): void {
    this.keepOpen();
    const panel = this.page.panel;
    const closeIfDone = (): void => {
      if (this.calls.count() > 0) return;
      this.keepOpen();
      if (this.current || this.page.panel !== panel || !panel) return;
      if (isPinned(panel)) {
        this.log.info('Nothing waits for an answer; the Agent Input tab stays open because it is pinned.');
        return;
      }
      panel.dispose();
    };
    this.stopWaitingForCalls = this.calls.onChange(closeIfDone);
    closeIfDone();
  }

  private keepOpen(): void {
    this.stopWaitingForCalls?.();
    this.stopWaitingForCalls = undefined;
  }

  /** The request ended elsewhere (withdrawn, server gone, timed out). */
  private ended(job: FormJob): void {
    this.rawDrafts.delete(job.request.id);
    this.errors.delete(job.request.id);
    const index = this.waiting.indexOf(job);
    if (index >= 0) {
      // Left the queue without a word.
      this.waiting.splice(index, 1);
      return;
    }
    if (this.current !== job) return;
    if (this.page.panel) tellRequestEnded(job.request, job.options.signal);
    this.next();
  }

  dispose(): void {
    this.unsubscribe();
    this.keepOpen();
    this.page.dispose();
  }
}

/** Who asks, as the page heads the form: what of the source the page shows. */
function askerOf(source: RequestSource): FormAsker {
  const { server, requester, tool, agent, session, background, ownQuestion } = source;
  return {
    server,
    ...(requester !== undefined && { requester }),
    ...(tool && { tool }),
    ...(agent && { agent }),
    ...(session !== undefined && { session }),
    ...(background && { background: true }),
    ...(ownQuestion && { ownQuestion: true }),
  };
}

/** The panel's tab is pinned (VS Code tells only through the tab groups). */
function isPinned(panel: vscode.WebviewPanel): boolean {
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some((tab) => tab.isPinned && tab.label === panel.title && tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(panel.viewType)),
  );
}
