/**
 * What the runner prints about a question and its answer, whichever prompter answers it.
 * Who asks is `sourceLabel`; answers to fields that look secret are printed as `********`.
 */
import type { Outcome } from '../elicitation/broker';
import type { Question } from '../elicitation/model';
import { type InputRequest, type RequestSource, sourceLabel } from '../elicitation/request';
import { isSecretField } from '../elicitation/secret-hint';
import { checkUrl } from '../elicitation/url-check';
import { defaultOf, fromAnswerValue } from '../elicitation/validation';
import type { Output } from './output';

/** What is printed instead of a secret. */
export const HIDDEN = '********';

/** A typed secret: its value is never shown (the rule every surface shares). */
export { isSecretField };

function describeField(q: Question): string {
  const bits: string[] = [q.kind];
  if (q.kind === 'text' && q.format) bits.push(q.format);
  if (q.required) bits.push('required');
  const dflt = defaultOf(q);
  if (dflt !== undefined) bits.push(`default ${isSecretField(q) ? 'hidden' : JSON.stringify(dflt)}`);
  if ('options' in q) bits.push(`one of ${q.options.map((o) => o.value).join('|')}`);
  if (isSecretField(q)) bits.push('looks secret: hidden as you type');
  return `${q.id} (${bits.join(', ')})`;
}

export function announce(out: Output, request: InputRequest): void {
  const who = sourceLabel(request.source);
  if (request.mode === 'url') {
    const check = checkUrl(request.url);
    out.line(`? ${who} asks you to open ${request.url}${check.ok ? ` [site: ${check.host}${check.warnings.length ? `; ${check.warnings.join(' ')}` : ''}]` : ` [refused: ${check.reason}]`}\n  ${request.message}`, {
      type: 'elicitation', mode: 'url', server: request.source.server, tool: request.source.tool ?? null, message: request.message, url: request.url,
    });
    return;
  }
  const fields = request.questions.length === 0 ? '  (a yes/no question)' : request.questions.map((q) => `  - ${describeField(q)}`).join('\n');
  out.line(`? ${who}: ${request.message}\n${fields}`, {
    type: 'elicitation', mode: 'form', server: request.source.server, tool: request.source.tool ?? null, message: request.message,
    fields: request.questions.map((q) => q.id), ...(request.source.background && { background: true }),
  });
}

/** The submitted answers as content, secrets hidden; `hidden` lists the fields whose values were. */
function shownContent(request: InputRequest, outcome: Outcome): { content: Record<string, unknown>; hidden: string[] } | undefined {
  if (outcome.action !== 'accept' || !outcome.answers) return undefined;
  const hidden: string[] = [];
  // fromEntries: a field named "__proto__" is printed as a field.
  const content = Object.fromEntries(
    Object.entries(outcome.answers).flatMap(([id, answer]) => {
      if (answer.state !== 'submitted') return [];
      const question = request.questions.find((q) => q.id === id);
      if (question && isSecretField(question)) {
        hidden.push(id);
        return [[id, HIDDEN]];
      }
      return [[id, fromAnswerValue(answer.value)]];
    }),
  );
  return { content, hidden };
}

/** Prints the answer; `reason` says why, when the runner chose it rather than the person or the file. */
export function announceAnswer(out: Output, outcome: Outcome, request: InputRequest, reason?: string): void {
  const shown = shownContent(request, outcome);
  const content = shown?.content;
  out.line(`→ ${outcome.action}${content && Object.keys(content).length ? ` ${JSON.stringify(content)}` : ''}${reason ? ` (${reason})` : ''}`, {
    type: 'answer', action: outcome.action, ...(content && { content }), ...(shown?.hidden.length && { hidden: shown.hidden }), ...(reason && { reason }), request: request.id,
  });
}

/** A link the broker refused without asking anyone (not a web page): the server got `decline`. */
export function announceRefusedLink(out: Output, source: RequestSource, url: string, reason: string): void {
  out.line(`? ${sourceLabel(source)} asks you to open ${url} [refused: ${reason}]`, {
    type: 'elicitation', mode: 'url', server: source.server, tool: source.tool ?? null, url, refused: reason,
  });
  const answerReason = 'the link was refused unopened';
  out.line(`→ decline (${answerReason})`, { type: 'answer', action: 'decline', reason: answerReason });
}
