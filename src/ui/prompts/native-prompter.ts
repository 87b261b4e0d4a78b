/**
 * Asks in VS Code's quick input, which shows one prompt at a time: questions and links
 * from every server wait in one first-come-first-served queue; one that ends while it
 * waits leaves silently; the visible one closes (and says why) when nobody waits for it
 * any more. A modal dialog is used only for a call the person started themselves (Run
 * Tool) and waits on: any other question, a background task's included, however
 * destructive, cannot take the window from them.
 */
import * as vscode from 'vscode';
import type { AskOptions, Outcome } from '../../elicitation/broker';
import type { ContentValue, Question, SelectOption } from '../../elicitation/model';
import { type InputRequest, ownAnswerPair, type UrlInputRequest } from '../../elicitation/request';
import type { InputStore } from '../../elicitation/store';
import { toAnswerValue } from '../../elicitation/validation';
import { checkUrl } from '../../elicitation/url-check';
import { isEndedByThePerson } from '../../base/ended-by-person';
import { dialogChoices, mayUseModal } from './dialog-choices';
import { MutedServers } from './mutes';
import { type Dialog, showDialog, showError, showInfo, showWarning } from '../notify';
import { errorMessage } from '../../base/error-message';
import { PromptQueue, type ShowResult } from '../quick-input/prompt-queue';
import { Deferral, type PromptFrame, type StepResult } from '../quick-input/quick-input-frame';
import { askConfirm, askQuestion } from './quick-prompts';
import { askSelectOrOwn } from './own-answer-pick';
import { StepByStep } from './step-by-step';
import { dialogText, sourceLabel } from '../text';
import { askLink, linkDialog, openLink } from '../links/url-prompt';
import { showWholeLabel, whileReading, type WholeInputDocuments } from './whole-input';
import { notShownNote, type ProposedDiffs, VIEW_DIFF, viewable } from './view-diff';
import type { WholeInput } from '../../elicitation/request';

interface Job {
  readonly request: InputRequest;
  readonly options: AskOptions;
  /** Handed over by the form panel: every step offers the way back to it. */
  readonly offerForm: boolean;
}

/** The notification's button that brings a question back after its diffs were read. */
const BACK_TO_DECISION = 'Back to the Decision';

/** The person went back to the form panel; the drafts are in the store. */
export type BackToForm = 'form';

type Shown = Outcome | BackToForm | 'deferred' | 'aborted';

/** How a question's dialog ended: a button (undefined: dismissed), or declined, deferred or ended while its whole was read. */
type DialogEnd<T> = T | undefined | 'declined' | 'deferred' | 'aborted';

/** Says, without blocking, that a prompt closed because its request ended elsewhere. */
export function tellRequestEnded(request: InputRequest, signal: AbortSignal, dialogLeftOpen = false): void {
  const reason: unknown = signal.reason;
  // Closed by the person elsewhere (Stop): they saw it; only a dialog left open needs a word.
  if (isEndedByThePerson(reason) && !dialogLeftOpen) return;
  const why = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'the question was withdrawn';
  if (/is finished$/.test(why)) return;
  // A modal dialog cannot be closed for us: say that its buttons no longer answer anything.
  const dialog = dialogLeftOpen ? ' The dialog it opened no longer answers anything: close it.' : '';
  void showInfo(`Question from ${sourceLabel(request.source)} closed: ${why}.${dialog}`);
}

export class NativePrompter {
  private readonly deferral = new Deferral();
  private readonly queue = new PromptQueue<Outcome | BackToForm>(() => this.deferral.defer());
  private readonly steps: StepByStep;
  /** Requests whose modal dialog is on screen (a modal cannot be closed for us). */
  private readonly dialogsOnScreen = new Set<string>();
  /** Requests that stepped aside while the person reads their diffs: how each comes back (readAside). */
  private readonly reading = new Map<string, () => void>();

  constructor(
    store: InputStore,
    private readonly mutes: MutedServers,
    private readonly log: vscode.LogOutputChannel,
    private readonly wholeInputs: WholeInputDocuments,
    private readonly proposedDiffs: ProposedDiffs,
  ) {
    this.steps = new StepByStep(store, this.deferral);
  }

  /** The request the quick input shows now, if any. */
  get visibleRequestId(): string | undefined {
    return this.queue.visibleId;
  }

  ask(request: InputRequest, options: AskOptions): Promise<Outcome> {
    // Only a job that offers the form can end in 'form'.
    return this.enqueue({ request, options, offerForm: false }) as Promise<Outcome>;
  }

  /**
   * A form the form panel hands over ("Answer step by step"): asked one question at a
   * time, each step offering the way back to the panel.
   */
  askStepByStep(request: InputRequest, options: AskOptions): Promise<Outcome | BackToForm> {
    return this.enqueue({ request, options: { ...options, presentation: 'form' }, offerForm: true });
  }

  private enqueue(job: Job): Promise<Outcome | BackToForm> {
    const { request, options } = job;
    return new Promise<Outcome | BackToForm>((resolve) => {
      this.queue.enqueue({
        id: request.id,
        signal: options.signal,
        resolve,
        onAborted: () => tellRequestEnded(request, options.signal, this.dialogsOnScreen.delete(request.id)),
        show: async (): Promise<ShowResult<Outcome | BackToForm>> => {
          try {
            const outcome = await this.show(job);
            return outcome === 'deferred' || outcome === 'aborted' ? { kind: outcome } : { kind: 'done', value: outcome };
          } catch (error) {
            void showError(`Could not show the question: ${errorMessage(error)}`);
            return { kind: 'done', value: { action: 'cancel' } };
          }
        },
      });
    });
  }

  /** Shows this request now; the one on screen goes back into the queue right behind it. */
  bringForward(requestId: string): boolean {
    const back = this.reading.get(requestId);
    if (back) {
      back();
      return true;
    }
    return this.queue.bringForward(requestId);
  }

  /**
   * While the person reads an agent's diffs (View Diff), the question steps aside: nothing
   * of ours covers the editors (a quick input would lie over the tab bar, and every diff but
   * the front one would be out of reach). It waits in Pending Inputs and the status bar; a
   * notification says so, its "Back to the Decision" one click away, and Show Pending Inputs
   * (the status bar item, the palette, the Pending Inputs view) brings it back by keyboard.
   * Resolves when the person comes back (`back`), when the quick input is wanted for another
   * question or our own pickers (`deferred`: it waits in the queue, its dialog comes again),
   * or when the request ends first (`aborted`).
   */
  private readAside(job: Job, files: readonly string[]): Promise<'back' | 'deferred' | 'aborted'> {
    const { request, options } = job;
    if (options.signal.aborted) return Promise.resolve('aborted');
    return new Promise((resolve) => {
      const done = (how: 'back' | 'deferred' | 'aborted'): void => {
        if (this.reading.get(request.id) !== back) return;
        this.reading.delete(request.id);
        this.deferral.detach();
        options.signal.removeEventListener('abort', onAbort);
        resolve(how);
      };
      const back = (): void => done('back');
      const onAbort = (): void => done('aborted');
      options.signal.addEventListener('abort', onAbort, { once: true });
      this.reading.set(request.id, back);
      this.deferral.attach(() => done('deferred'));
      const what = files.length === 1 ? `The diff of ${files[0]} is open in an editor` : `The diffs of ${files.length} files (${files.join(', ')}) are open in editors, one each`;
      const text = `${what}: read ${files.length === 1 ? 'it' : 'them'}, then go back to the decision. The question from ${sourceLabel(request.source)} waits in Pending Inputs meanwhile.`;
      void showInfo(text, BACK_TO_DECISION).then((choice) => {
        // Wherever it waits by then: stepped aside here, or in the queue behind another.
        if (choice === BACK_TO_DECISION && !options.signal.aborted) this.bringForward(request.id);
      });
    });
  }

  /** Frees the quick input for something else; the prompt on screen waits until resume is called. */
  pause(): () => void {
    return this.queue.pause();
  }

  private frame(job: Job, extra: Partial<PromptFrame> = {}): PromptFrame {
    const { source } = job.request;
    return {
      title: sourceLabel(source),
      message: job.request.message,
      signal: job.options.signal,
      deferral: this.deferral,
      ...(source.ownQuestion && { ownQuestion: true }),
      ...(source.approval && { approval: true }),
      ...(MutedServers.canMute(source) && { mute: { who: source.server, mute: () => this.mutes.mute(source.server) } }),
      ...extra,
    };
  }

  private async show(job: Job): Promise<Shown> {
    const { request, options } = job;
    // Muted while it waited: declined unseen, as it would have been had it come later.
    if (this.mutes.declines(request.source)) return { action: 'decline' };
    if (request.mode === 'url') return this.link(job, request);
    switch (options.presentation) {
      case 'confirm':
        if (!request.source.destructive) return fromStep(await askConfirm(this.frame(job)), undefined);
        if (mayUseModal(request.source)) return this.destructiveDialog(job);
        return fromStep(await askConfirm(this.frame(job), { what: destructiveWhat(request) }), undefined);
      case 'pick':
      case 'pick-many':
      case 'input': {
        const question = request.questions[0];
        // A destructive choice of the person's own call: a modal, one button per choice.
        const choices = request.source.destructive && mayUseModal(request.source) ? dialogChoices(question) : undefined;
        if (choices) return this.choiceDialog(job, question, choices);
        const error = options.errors?.find((e) => e.questionId === question.id)?.message;
        return fromStep(await askQuestion(question, this.frame(job), this.steps.draftOf(request, question), error), question);
      }
      case 'pick-other':
      case 'pick-many-other':
        return this.selectOrOwn(job);
      default:
        return this.stepByStep(job);
    }
  }

  /** A form in the quick input, one question at a time. */
  private stepByStep(job: Job): Promise<Shown> {
    return this.steps.run(job.request, job.options.errors ?? [], (extra) => this.frame(job, extra), job.offerForm, (result) => fromStep(result, undefined));
  }

  /** One select and the person's own answer to it (a live request's allowFreeformInput): its options and "Other…". */
  private async selectOrOwn(job: Job): Promise<Shown> {
    const { request } = job;
    const [select, own] = request.questions;
    const pair = ownAnswerPair(request, select.id);
    // The broker pairs only a select with the text question after it; anything else is asked as the form is.
    if (!pair || (select.kind !== 'single-select' && select.kind !== 'multi-select') || own?.kind !== 'text') return this.stepByStep(job);
    const drafts = { draftOf: (q: Question) => this.steps.draftOf(request, q), saveDraft: (q: Question, value: ContentValue | undefined) => this.steps.saveDraft(request, q, value) };
    const end = await askSelectOrOwn({ select, own, required: pair.required }, this.frame(job), drafts);
    return end.kind === 'answers' ? { action: 'accept', answers: end.answers } : fromStep(end, undefined);
  }

  /**
   * A question's modal dialog, in its turn in the queue. When its text is not all shown (a
   * long command), it offers the whole; when it approves an edit, the diff (View Diff, for
   * the files inside the session's folders; the others are said not to be shown). Either
   * opens in an editor, read while the question waits (the whole: in a quick pick beside its
   * one editor; the diffs: stepped aside, readAside), then the same dialog comes again.
   */
  private async dialog<T extends vscode.MessageItem>(job: Job, dialog: Dialog<T>): Promise<DialogEnd<T>> {
    const changes = job.request.mode === 'form' ? job.request.changes : undefined;
    const note = changes && notShownNote(changes);
    if (note !== undefined) dialog = { ...dialog, detail: `${dialog.detail}\n\n${note}` };
    const whole = wholeOf(job.request, dialog.detail);
    const diffs = viewable(changes);
    if (!whole && diffs.length === 0) return this.dialogOnce(job, dialog);
    const showWhole: vscode.MessageItem | undefined = whole && { title: showWholeLabel(whole) };
    const viewDiff: vscode.MessageItem | undefined = diffs.length > 0 ? { title: VIEW_DIFF } : undefined;
    const extra = [viewDiff, showWhole].filter((b) => b !== undefined);
    for (;;) {
      const choice = await this.dialogOnce<vscode.MessageItem>(job, { ...dialog, buttons: [...dialog.buttons, ...extra] });
      if (choice === undefined || choice === 'aborted' || (choice !== viewDiff && choice !== showWhole)) return choice as T | undefined | 'aborted';
      if (choice === viewDiff) {
        const { opened, problems } = await this.proposedDiffs.open(diffs, job.request.source.server);
        if (problems.length > 0) void showWarning(`Not shown: ${problems.join('; ')}`);
        // Nothing opened: the same dialog again, the warning beside it.
        if (opened.length === 0) continue;
        const read = await this.readAside(job, opened.map((d) => d.name));
        if (read !== 'back') return read;
        continue;
      }
      if (!whole) continue;
      await this.wholeInputs.open(whole, sourceLabel(job.request.source));
      const read = await whileReading(this.frame(job), `the whole ${whole.name}`);
      if (read.kind === 'decline') return 'declined';
      if (read.kind === 'deferred' || read.kind === 'aborted') return read.kind;
      if (read.kind !== 'value') return undefined;
    }
  }

  /**
   * A modal dialog. VS Code offers no way to close a modal for us, so when the question
   * ends while it is on screen the person is told at once, the queue moves on, and the
   * dialog's answer goes nowhere.
   */
  private async dialogOnce<T extends vscode.MessageItem>(job: Job, dialog: Dialog<T>): Promise<T | undefined | 'aborted'> {
    const { request, options } = job;
    if (options.signal.aborted) return 'aborted';
    const ended = new Promise<'aborted'>((resolve) => options.signal.addEventListener('abort', () => resolve('aborted'), { once: true }));
    this.dialogsOnScreen.add(request.id);
    const choice = await Promise.race([showDialog(dialog), ended]);
    if (choice === 'aborted' || options.signal.aborted) return 'aborted';
    this.dialogsOnScreen.delete(request.id);
    return choice;
  }

  /** A destructive tool's confirm for a call the person started: a modal warning whose default button is Decline. */
  private async destructiveDialog(job: Job): Promise<Outcome | 'deferred' | 'aborted'> {
    const decline: vscode.MessageItem = { title: 'Decline' };
    const accept: vscode.MessageItem = { title: 'Accept' };
    const choice = await this.dialog(job, { kind: 'warning', heading: `${destructiveWhat(job.request)} Accept?`, detail: job.request.message, buttons: [decline, accept] });
    if (choice === 'aborted' || choice === 'deferred') return choice;
    return choice === accept ? { action: 'accept', answers: {} } : choice === decline || choice === 'declined' ? { action: 'decline' } : { action: 'cancel' };
  }

  /** A destructive one-choice question of a call the person started: Decline (the default button) or one of the choices. */
  private async choiceDialog(job: Job, question: Question, choices: readonly SelectOption[]): Promise<Outcome | 'deferred' | 'aborted'> {
    const decline: vscode.MessageItem = { title: 'Decline' };
    const buttons = choices.map((choice) => ({ title: choice.label, value: choice.value }));
    const detail = [job.request.message, question.description].filter((text) => text !== undefined && text !== '').join('\n\n');
    // A dialog's first button is its default. An agent's permission names its own "no" (its
    // default, ACP's reject option): that one comes first and stands for Decline, not a second "no" beside it.
    const own = job.request.source.approval && question.kind === 'single-select' ? buttons.find((b) => b.value === question.defaultValue) : undefined;
    const ordered = own ? [own, ...buttons.filter((b) => b !== own)] : [decline, ...buttons];
    const choice = await this.dialog<vscode.MessageItem & { value?: string }>(job, { kind: 'warning', heading: destructiveWhat(job.request), detail, buttons: ordered });
    if (choice === 'aborted' || choice === 'deferred') return choice;
    if (choice === undefined) return { action: 'cancel' };
    if (choice === 'declined' || choice === decline || choice.value === undefined) return { action: 'decline' };
    return { action: 'accept', answers: { [question.id]: { state: 'submitted', value: { kind: 'selected', value: choice.value } } } };
  }

  /** A link: a dialog for a call the person started, otherwise a quick pick in the queue. */
  private async link(job: Job, request: UrlInputRequest): Promise<Shown> {
    const check = checkUrl(request.url);
    // The broker refuses bad links before they get here; this only narrows the type.
    if (!check.ok) return { action: 'decline' };
    if (mayUseModal(request.source)) {
      const open: vscode.MessageItem = { title: 'Open' };
      const decline: vscode.MessageItem = { title: 'Decline' };
      const choice = await this.dialog(job, linkDialog(request, check, open, decline));
      if (choice === 'aborted' || choice === 'deferred') return choice;
      if (choice !== open) return { action: choice === decline || choice === 'declined' ? 'decline' : 'cancel' };
    } else {
      const result = await askLink(this.frame(job), request, check);
      if (result.kind !== 'value') return fromStep(result, undefined);
    }
    if (job.options.signal.aborted) return 'aborted';
    return (await openLink(this.log, request.source, check)) ? { action: 'accept' } : { action: 'cancel' };
  }
}

/** The whole of what a dialog asks about, when the dialog cannot show it all: the request's own, or its whole message. */
function wholeOf(request: InputRequest, detail: string): WholeInput | undefined {
  if (request.mode === 'form' && request.whole) return request.whole;
  return dialogText(detail).complete ? undefined : { name: 'message', text: detail, language: 'plaintext' };
}

/** What the destructive confirm says first: who wants to run what. */
function destructiveWhat(request: InputRequest): string {
  const { server, tool, requester, session } = request.source;
  const who = requester === 'extension' ? `The extension "${server}"` : `"${server}"`;
  // An ACP agent asks before it acts, in one of its sessions: which one is said.
  if (requester === 'agent') return `${who} asks before it acts${tool ? `: "${tool}"` : ''}${session !== undefined ? ` (session '${session}')` : ''}.`;
  return tool ? `${who} wants to run "${tool}", a destructive action.` : `${who} asks to go ahead with a destructive action.`;
}

/** A single question's step result as the broker's outcome. */
function fromStep(result: StepResult, question: Question | undefined): Outcome | 'deferred' | 'aborted' {
  switch (result.kind) {
    case 'value': {
      if (!question || result.value === undefined) {
        return { action: 'accept', answers: question ? { [question.id]: { state: 'skipped' } } : {} };
      }
      return { action: 'accept', answers: { [question.id]: { state: 'submitted', value: toAnswerValue(question, result.value) } } };
    }
    case 'decline':
      return { action: 'decline' };
    case 'deferred':
    case 'aborted':
      return result.kind;
    default:
      // Escape, closing, or Back on a one-question prompt: the person dismissed it.
      return { action: 'cancel' };
  }
}
