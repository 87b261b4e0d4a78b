/**
 * Asks in VS Code's quick input, which shows one prompt at a time: requests from every
 * server wait in a first-come-first-served queue; one that ends while it waits leaves
 * silently; the visible one closes (and says why) when nobody waits for it any more.
 */
import * as vscode from 'vscode';
import type { AskOptions, Outcome } from '../elicitation/broker';
import type { Answer, Answers, ContentValue, Question } from '../elicitation/model';
import type { InputRequest } from '../elicitation/request';
import { findRequest, type InputStore } from '../elicitation/store';
import { buildContent, defaultOf, fromAnswerValue, ownAnswer, toAnswerValue } from '../elicitation/validation';
import { PromptQueue, type ShowResult } from './prompt-queue';
import { askConfirm, askQuestion, Deferral, FORM_BUTTON, type PromptFrame, type StepResult } from './quick-prompts';
import { escapeIcons, iconSafe, linkSafe, oneLine, sourceLabel, wrap } from './text';

interface Job {
  readonly request: InputRequest;
  readonly options: AskOptions;
  /** Handed over by the form panel: every step offers the way back to it. */
  readonly offerForm: boolean;
}

/** The person went back to the form panel; the drafts are in the store. */
export type BackToForm = 'form';

/** Says, without blocking, that a prompt closed because its request ended elsewhere. */
export function tellRequestEnded(request: InputRequest, signal: AbortSignal, dialogLeftOpen = false): void {
  const reason: unknown = signal.reason;
  const why = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'the question was withdrawn';
  if (/is finished$/.test(why)) return;
  // A modal dialog cannot be closed for us: say that its buttons no longer answer anything.
  const dialog = dialogLeftOpen ? ' The dialog it opened no longer answers anything: close it.' : '';
  void vscode.window.showInformationMessage(linkSafe(`Question from ${sourceLabel(request.source)} closed: ${why}.${dialog}`, 500));
}

export class NativePrompter {
  private readonly deferral = new Deferral();
  private readonly queue = new PromptQueue<Outcome | BackToForm>(() => this.deferral.defer());
  /** Requests whose modal dialog is on screen (a modal cannot be closed for us). */
  private readonly dialogsOnScreen = new Set<string>();

  constructor(private readonly store: InputStore) {}

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
            void vscode.window.showErrorMessage(`Could not show the question: ${error instanceof Error ? error.message : String(error)}`);
            return { kind: 'done', value: { action: 'cancel' } };
          }
        },
      });
    });
  }

  /** Shows this request now; the one on screen goes back into the queue right behind it. */
  bringForward(requestId: string): boolean {
    return this.queue.bringForward(requestId);
  }

  /** Frees the quick input for something else; the prompt on screen waits until resume is called. */
  pause(): () => void {
    return this.queue.pause();
  }

  private frame(job: Job, extra: Partial<PromptFrame> = {}): PromptFrame {
    return {
      title: sourceLabel(job.request.source),
      message: job.request.message,
      signal: job.options.signal,
      deferral: this.deferral,
      ...extra,
    };
  }

  private async show(job: Job): Promise<Outcome | BackToForm | 'deferred' | 'aborted'> {
    const { request, options } = job;
    switch (options.presentation) {
      case 'confirm':
        return request.source.destructive ? this.destructiveConfirm(job) : fromStep(await askConfirm(this.frame(job)), undefined);
      case 'pick':
      case 'pick-many':
      case 'input': {
        const question = request.questions[0];
        const error = options.errors?.find((e) => e.questionId === question.id)?.message;
        return fromStep(await askQuestion(question, this.frame(job), this.draftOf(request, question), error), question);
      }
      default:
        return this.stepByStep(job);
    }
  }

  /**
   * A destructive tool's confirm: a modal warning whose default button is Decline. VS Code
   * offers no way to close a modal for us, so when the question ends while it is on screen
   * the person is told at once, the queue moves on, and the dialog's answer goes nowhere.
   */
  private async destructiveConfirm(job: Job): Promise<Outcome | 'aborted'> {
    const { request, options } = job;
    if (options.signal.aborted) return 'aborted';
    const who = request.source.tool ? `"${request.source.server}" wants to run "${request.source.tool}"` : `"${request.source.server}" asks`;
    const decline: vscode.MessageItem = { title: 'Decline' };
    const accept: vscode.MessageItem = { title: 'Accept' };
    const dialog = vscode.window.showWarningMessage(oneLine(`${who}, a destructive action. Accept?`, 400), { modal: true, detail: request.message }, decline, accept);
    const ended = new Promise<'aborted'>((resolve) => options.signal.addEventListener('abort', () => resolve('aborted'), { once: true }));
    this.dialogsOnScreen.add(request.id);
    const choice = await Promise.race([dialog, ended]);
    if (choice === 'aborted' || options.signal.aborted) return 'aborted';
    this.dialogsOnScreen.delete(request.id);
    if (choice === accept) return { action: 'accept', answers: {} };
    if (choice === decline) return { action: 'decline' };
    return { action: 'cancel' };
  }

  private draftOf(request: InputRequest, question: Question): ContentValue | undefined {
    const answer = ownAnswer(findRequest(this.store.state, request.id)?.answers ?? {}, question.id);
    return answer && answer.state !== 'skipped' ? fromAnswerValue(answer.value) : undefined;
  }

  private saveDraft(request: InputRequest, question: Question, value: ContentValue | undefined): void {
    const answer: Answer | undefined = value === undefined ? undefined : { state: 'draft', value: toAnswerValue(question, value) };
    this.store.dispatch({ type: 'answerChanged', requestId: request.id, questionId: question.id, ...(answer && { answer }) });
  }

  /**
   * A form answered one question at a time, then reviewed: each answer is kept as a draft
   * in the store, so the form panel shows what was typed here, and the other way round.
   */
  private async stepByStep(job: Job): Promise<Outcome | BackToForm | 'deferred' | 'aborted'> {
    const { request, options } = job;
    const questions = request.questions;
    const total = questions.length + 1;
    const errors = new Map((options.errors ?? []).map((e) => [e.questionId, e.message]));
    let index = errors.size > 0 ? Math.max(0, questions.findIndex((q) => errors.has(q.id))) : 0;
    for (;;) {
      if (index >= questions.length) {
        const review = await this.review(job, total);
        if (review.kind === 'form') return 'form';
        if (review.kind === 'edit') {
          index = review.index;
          continue;
        }
        if (review.kind !== 'submit') return review.kind === 'deferred' || review.kind === 'aborted' ? review.kind : { action: review.kind };
        const answers = this.submittedAnswers(request);
        const built = buildContent({ questions }, answers, { applyDefaults: false });
        if (!built.ok) {
          built.errors.forEach((e) => errors.set(e.questionId, e.message));
          index = questions.findIndex((q) => q.id === built.errors[0].questionId);
          continue;
        }
        return { action: 'accept', answers };
      }
      const question = questions[index];
      const result = await askQuestion(
        question,
        this.frame(job, { step: index + 1, totalSteps: total, canGoBack: index > 0, offerForm: job.offerForm }),
        this.draftOf(request, question) ?? defaultOf(question),
        errors.get(question.id),
      );
      switch (result.kind) {
        case 'value':
          this.saveDraft(request, question, result.value);
          errors.delete(question.id);
          index++;
          break;
        case 'back':
          index = Math.max(0, index - 1);
          break;
        case 'form':
          if (result.value !== undefined) this.saveDraft(request, question, result.value);
          return 'form';
        default:
          return fromStep(result, undefined);
      }
    }
  }

  private submittedAnswers(request: InputRequest): Answers {
    const drafts = findRequest(this.store.state, request.id)?.answers ?? {};
    return Object.fromEntries(
      request.questions.map((q): [string, Answer] => {
        const draft = ownAnswer(drafts, q.id);
        return [q.id, draft && draft.state !== 'skipped' ? { state: 'submitted', value: draft.value } : { state: 'skipped' }];
      }),
    );
  }

  /** The last step: every answer on one screen, to change any of them, then Submit or Decline. */
  private review(job: Job, total: number): Promise<{ kind: 'submit' | 'decline' | 'cancel' | 'deferred' | 'aborted' | 'form' } | { kind: 'edit'; index: number }> {
    const { request } = job;
    type ReviewRow = vscode.QuickPickItem & { index?: number; action?: 'submit' | 'decline' };
    const pick = vscode.window.createQuickPick<ReviewRow>();
    pick.title = oneLine(sourceLabel(request.source));
    pick.step = total;
    pick.totalSteps = total;
    pick.ignoreFocusOut = true;
    pick.buttons = [vscode.QuickInputButtons.Back, ...(job.offerForm ? [FORM_BUTTON] : [])];
    pick.placeholder = 'Review your answers: choose one to change it, or Submit';
    const answerRows: ReviewRow[] = request.questions.map((q, index) => {
      const value = this.draftOf(request, q);
      const shown = value === undefined ? '(empty)' : Array.isArray(value) ? value.map((v) => labelOf(q, v)).join(', ') : labelOf(q, value);
      return { label: iconSafe(q.title, 200), description: iconSafe(shown, 300), index, alwaysShow: true };
    });
    const submit: ReviewRow = { label: '$(check) Submit', action: 'submit', alwaysShow: true };
    pick.items = [
      ...wrap(request.message).map((line): ReviewRow => ({ label: escapeIcons(line) || ' ', alwaysShow: true })),
      { label: 'Your answers', kind: vscode.QuickPickItemKind.Separator },
      ...answerRows,
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      submit,
      { label: '$(circle-slash) Decline', action: 'decline', alwaysShow: true },
    ];
    pick.activeItems = [submit];
    return new Promise((resolve) => {
      let done = false;
      const finish = (value: Parameters<typeof resolve>[0]): void => {
        if (done) return;
        done = true;
        this.deferral.detach();
        job.options.signal.removeEventListener('abort', onAbort);
        pick.dispose();
        resolve(value);
      };
      const onAbort = (): void => finish({ kind: 'aborted' });
      job.options.signal.addEventListener('abort', onAbort, { once: true });
      pick.onDidAccept(() => {
        const row = pick.selectedItems[0];
        if (row?.action) finish({ kind: row.action });
        else if (row?.index !== undefined) finish({ kind: 'edit', index: row.index });
      });
      pick.onDidTriggerButton((button) => finish(button === FORM_BUTTON ? { kind: 'form' } : { kind: 'edit', index: request.questions.length - 1 }));
      pick.onDidHide(() => finish({ kind: this.deferral.deferred ? 'deferred' : 'cancel' }));
      this.deferral.attach(() => pick.hide());
      pick.show();
    });
  }
}

function labelOf(question: Question, value: ContentValue): string {
  if (question.kind === 'single-select' || question.kind === 'multi-select') {
    return question.options.find((o) => o.value === value)?.label ?? String(value);
  }
  if (question.kind === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
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
