/**
 * One history entry as the read-only document the History view opens: who asked, when,
 * how it ended, the question, the answers (secrets already masked), the link, the result.
 * Plain text in an editor, so nothing in it is interpreted.
 */
import type { HistoryEntry } from './history';
import { withoutInvisible } from './plain-text';
import { sourceLabel } from './request';

/** A local date and time to the second, the way a log reads (no locale surprises in tests). */
export function when(at: number): string {
  const d = new Date(at);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The outcome and the asker's reason, said once where the reason already names the outcome. */
function howItEnded(entry: HistoryEntry): string {
  if (!entry.reason) return entry.outcome;
  const reason = withoutInvisible(entry.reason);
  // An agent host's "answered in another client (accepted)" restates the outcome: only how is added.
  const elsewhere = entry.outcome === 'answered elsewhere' ? /^answered in another client(?: \((.*)\))?$/.exec(reason) : null;
  if (elsewhere) return elsewhere[1] ? `${entry.outcome} (${elsewhere[1]})` : entry.outcome;
  return `${entry.outcome} (${reason})`;
}

export function historyText(entry: HistoryEntry): string {
  const lines = [
    sourceLabel(entry.source),
    '',
    `Asked:  ${when(entry.askedAt)}`,
    `Ended:  ${when(entry.endedAt)}, ${howItEnded(entry)}`,
    ...(entry.source.destructive ? ['A destructive action.'] : []),
    '',
    'Question:',
    withoutInvisible(entry.message),
  ];
  if (entry.url !== undefined) lines.push('', 'Link:', entry.url);
  if (entry.answers.length > 0) {
    lines.push('', 'Answers:');
    for (const a of entry.answers) lines.push(`  ${withoutInvisible(a.question)}: ${withoutInvisible(a.answer)}`);
  } else if (entry.outcome === 'accepted' && entry.mode === 'form') {
    lines.push('', 'Answers: none (accepted as asked)');
  }
  if (entry.result !== undefined) lines.push('', 'Tool result:', entry.result);
  return `${lines.join('\n')}\n`;
}
