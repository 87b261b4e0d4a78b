/**
 * The form as the page shows it: every piece of server text (who asks, the message,
 * titles, descriptions, option labels) without the characters that reorder or hide text.
 * Values (defaults, drafts, option values) are data sent back as they are, never changed.
 */
import type { Question, SelectOption } from '../src/elicitation/model';
import { withoutInvisible } from '../src/elicitation/plain-text';
import type { FormAsker, FormView } from '../src/shared/protocol';

function readableOption(option: SelectOption): SelectOption {
  return { ...option, label: withoutInvisible(option.label), ...(option.description !== undefined && { description: withoutInvisible(option.description) }) };
}

function readableQuestion(question: Question): Question {
  const text = { title: withoutInvisible(question.title), ...(question.description !== undefined && { description: withoutInvisible(question.description) }) };
  if (question.kind === 'single-select' || question.kind === 'multi-select') return { ...question, ...text, options: question.options.map(readableOption) };
  return { ...question, ...text };
}

function readableAsker(asker: FormAsker): FormAsker {
  return {
    ...asker,
    server: withoutInvisible(asker.server),
    ...(asker.tool !== undefined && { tool: withoutInvisible(asker.tool) }),
    ...(asker.agent !== undefined && { agent: withoutInvisible(asker.agent) }),
    ...(asker.session !== undefined && { session: withoutInvisible(asker.session) }),
  };
}

export function readableForm(form: FormView): FormView {
  return {
    ...form,
    asker: readableAsker(form.asker),
    message: withoutInvisible(form.message),
    questions: form.questions.map(readableQuestion),
  };
}
