/**
 * The room `src/ui/prompts/`: how a question is put to the person in VS Code: this file (the
 * Prompter port's VS Code side), `native-prompter` (the queue of quick input prompts and
 * dialogs), `quick-prompts` (a pick or an input box), `step-by-step` (a form one question at
 * a time), `dialog-choices` (which questions are modal buttons), `mutes` ("Decline and stop
 * asking") and `refusals` (a question that could not be shown). Links are `src/ui/links/`,
 * the form panel `src/ui/form/`.
 *
 * The VS Code Prompter: each question goes to the surface that fits it (the form panel
 * for forms; the quick input's queue for everything else, links included), and any
 * pending one can be brought forward.
 */
import type { AskOptions, Outcome, Prompter } from '../../elicitation/broker';
import type { InputRequest } from '../../elicitation/request';
import type { NativePrompter } from './native-prompter';

/** A surface that shows forms (the webview panel). */
export interface FormSurface {
  ask(request: InputRequest, options: AskOptions): Promise<Outcome>;
  /** Shows this request if the surface has it. */
  reveal(requestId: string): boolean;
}

export class VsCodePrompter implements Prompter {
  constructor(
    private readonly native: NativePrompter,
    private readonly forms?: FormSurface,
  ) {}

  ask(request: InputRequest, options: AskOptions): Promise<Outcome> {
    if (request.mode === 'form' && options.presentation === 'form' && this.forms) return this.forms.ask(request, options);
    return this.native.ask(request, options);
  }

  /** Brings a pending request to the person (from the status bar list or the tree). */
  open(requestId: string): boolean {
    return (this.forms?.reveal(requestId) ?? false) || this.native.bringForward(requestId);
  }
}
