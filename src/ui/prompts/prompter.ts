/**
 * The room `src/ui/prompts/`: how a question is put to the person in VS Code: this file (the
 * Prompter port's VS Code side), `native-prompter` (the queue of quick input prompts and
 * dialogs), `quick-prompts` (a pick or an input box), `own-answer-pick` (a select with
 * "Other…" for the person's own answer), `step-by-step` (a form one question at a time),
 * `dialog-choices` (which questions may be modal, and as which buttons), `held-questions` (a
 * background task's question waits until the person opens it), `mutes` ("Decline and stop
 * asking"), `refusals` (a question that could not be shown), `whole-input` (Show Whole
 * Command: the whole of what a dialog shows in part), `view-diff` (View Diff: an agent's edit
 * against the file, before the person decides) and `extension-consent` (the dialogs an
 * extension's tool calls need). Links are `src/ui/links/`, the form panel `src/ui/form/`.
 *
 * The VS Code Prompter: each question goes to the surface that fits it (the form panel
 * for forms; the quick input's queue for everything else, links included), and any
 * pending one can be brought forward. A background task's question first waits in
 * Pending Inputs, announced, until the person opens it (held-questions.ts says why).
 */
import type { AskOptions, Outcome, Prompter } from '../../elicitation/broker';
import type { InputRequest } from '../../elicitation/request';
import { showInfo } from '../notify';
import { oneLine, sourceLabel } from '../text';
import { HeldQuestions } from './held-questions';
import { type NativePrompter, tellRequestEnded } from './native-prompter';

/** A surface that shows forms (the webview panel). */
export interface FormSurface {
  ask(request: InputRequest, options: AskOptions): Promise<Outcome>;
  /** Shows this request if the surface has it. */
  reveal(requestId: string): boolean;
}

export class VsCodePrompter implements Prompter {
  private readonly held = new HeldQuestions(
    (request) => this.announce(request),
    (request, signal) => tellRequestEnded(request, signal),
  );

  constructor(
    private readonly native: NativePrompter,
    private readonly forms?: FormSurface,
  ) {}

  ask(request: InputRequest, options: AskOptions): Promise<Outcome> {
    if (HeldQuestions.holds(request)) return this.held.hold(request, options.signal, () => this.askNow(request, options));
    return this.askNow(request, options);
  }

  private askNow(request: InputRequest, options: AskOptions): Promise<Outcome> {
    if (request.mode === 'form' && options.presentation === 'form' && this.forms) return this.forms.ask(request, options);
    return this.native.ask(request, options);
  }

  /** Brings a pending request to the person (from the status bar list, the tree, or a held question's Answer). */
  open(requestId: string): boolean {
    // A held one is asked now, then put in front of whatever its surface shows.
    const released = this.held.release(requestId);
    return (this.forms?.reveal(requestId) ?? false) || this.native.bringForward(requestId) || released;
  }

  /** A held question came: said without taking the focus, its Answer one click away. */
  private announce(request: InputRequest): void {
    const text = `Question from ${sourceLabel(request.source)}, waiting in Pending Inputs: ${oneLine(request.message, 300)}`;
    void showInfo(text, 'Answer').then((choice) => {
      if (choice === 'Answer' && !this.open(request.id)) void showInfo('That question is no longer waiting.');
    });
  }
}
