/**
 * A form asked one question at a time in the quick input, then reviewed on one screen.
 * Each answer is kept as a draft in the store, so the form panel shows what was typed
 * here, and the other way round. Secret-looking answers are never shown in the review.
 */
import * as vscode from 'vscode';
import type { Outcome } from '../../elicitation/broker';
import type { Answer, Answers, ContentValue, Question } from '../../elicitation/model';
import type { InputRequest } from '../../elicitation/request';
import { findRequest, type InputStore } from '../../elicitation/store';
import type { FieldError } from '../../elicitation/validation';
import { buildContent, defaultOf, fromAnswerValue, ownAnswer, toAnswerValue } from '../../elicitation/validation';
import { declineRows, type Deferral, FORM_BUTTON, type PromptFrame, type StepResult } from '../quick-input/quick-input-frame';
import { askQuestion } from './quick-prompts';
import { shownAnswer } from '../../elicitation/shown-answer';
import { escapeIcons, iconSafe, oneLine, wrap } from '../text';

/** How the step-by-step run ended: an outcome, back to the form, or interrupted. */
export type StepByStepEnd = Outcome | 'form' | 'deferred' | 'aborted';

type ReviewEnd = { kind: 'submit' | 'decline' | 'cancel' | 'deferred' | 'aborted' | 'form' } | { kind: 'edit'; index: number };

export class StepByStep {
  constructor(
    private readonly store: InputStore,
    private readonly deferral: Deferral,
  ) {}

  draftOf(request: InputRequest, question: Question): ContentValue | undefined {
    const answer = ownAnswer(findRequest(this.store.state, request.id)?.answers ?? {}, question.id);
    return answer && answer.state !== 'skipped' ? fromAnswerValue(answer.value) : undefined;
  }

  /** Keeps what the person chose or typed as the question's draft (undefined clears it), as the form does. */
  saveDraft(request: InputRequest, question: Question, value: ContentValue | undefined): void {
    const answer: Answer | undefined = value === undefined ? undefined : { state: 'draft', value: toAnswerValue(question, value) };
    this.store.dispatch({ type: 'answerChanged', requestId: request.id, questionId: question.id, ...(answer && { answer }), origin: 'quick-input' });
  }

  /**
   * Asks every question in turn (starting at the first refused one), then the review.
   * `frame` makes each step's frame; `fromStep` turns a step's decline or cancel into the outcome.
   */
  async run(
    request: InputRequest,
    refused: readonly FieldError[],
    frame: (extra: Partial<PromptFrame>) => PromptFrame,
    offerForm: boolean,
    fromStep: (result: StepResult) => Outcome | 'deferred' | 'aborted',
  ): Promise<StepByStepEnd> {
    const questions = request.questions;
    const total = questions.length + 1;
    const errors = new Map(refused.map((e) => [e.questionId, e.message]));
    let index = errors.size > 0 ? Math.max(0, questions.findIndex((q) => errors.has(q.id))) : 0;
    for (;;) {
      if (index >= questions.length) {
        const review = await this.review(request, frame({ step: total, totalSteps: total, offerForm }));
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
        frame({ step: index + 1, totalSteps: total, canGoBack: index > 0, offerForm }),
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
          return fromStep(result);
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
  private review(request: InputRequest, frame: PromptFrame): Promise<ReviewEnd> {
    type ReviewRow = vscode.QuickPickItem & { index?: number; action?: 'submit' | 'decline' | 'mute' };
    const pick = vscode.window.createQuickPick<ReviewRow>();
    pick.title = oneLine(frame.title);
    pick.step = frame.step;
    pick.totalSteps = frame.totalSteps;
    pick.ignoreFocusOut = true;
    pick.buttons = [vscode.QuickInputButtons.Back, ...(frame.offerForm ? [FORM_BUTTON] : [])];
    pick.placeholder = `Review your answers: choose one to change it, or ${frame.ownQuestion ? 'Run' : 'Submit'}`;
    const answerRows: ReviewRow[] = request.questions.map((q, index) => ({
      label: iconSafe(q.title, 200),
      description: iconSafe(shownAnswer(q, this.draftOf(request, q)), 300),
      index,
      alwaysShow: true,
    }));
    const submit: ReviewRow = { label: frame.ownQuestion ? '$(play) Run' : '$(check) Submit', action: 'submit', alwaysShow: true };
    pick.items = [
      ...wrap(request.message).map((line): ReviewRow => ({ label: escapeIcons(line) || ' ', alwaysShow: true })),
      { label: 'Your answers', kind: vscode.QuickPickItemKind.Separator },
      ...answerRows,
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      submit,
      // The same Decline rows as every pick (none for the person's own question), acted on here.
      ...declineRows(frame).map((row): ReviewRow => ({ ...row, action: row.role === 'mute' ? 'mute' : 'decline' })),
    ];
    pick.activeItems = [submit];
    return new Promise((resolve) => {
      let done = false;
      const finish = (value: ReviewEnd): void => {
        if (done) return;
        done = true;
        this.deferral.detach();
        frame.signal.removeEventListener('abort', onAbort);
        pick.dispose();
        resolve(value);
      };
      const onAbort = (): void => finish({ kind: 'aborted' });
      frame.signal.addEventListener('abort', onAbort, { once: true });
      pick.onDidAccept(() => {
        const row = pick.selectedItems[0];
        if (row?.action === 'mute') frame.mute?.mute();
        if (row?.action) finish({ kind: row.action === 'mute' ? 'decline' : row.action });
        else if (row?.index !== undefined) finish({ kind: 'edit', index: row.index });
      });
      pick.onDidTriggerButton((button) => finish(button === FORM_BUTTON ? { kind: 'form' } : { kind: 'edit', index: request.questions.length - 1 }));
      pick.onDidHide(() => finish({ kind: this.deferral.deferred ? 'deferred' : 'cancel' }));
      this.deferral.attach(() => pick.hide());
      pick.show();
    });
  }
}
