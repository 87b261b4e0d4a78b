/**
 * Markdown blocks and transcript entries as elements. Every piece of agent text is set with
 * textContent; links show their address and are never followed from the page (the agent's
 * text is not trusted: a link opens only through the host's link prompt, which this page does
 * not offer). As a chat people know reads: a tool call is one line (status, title, the files
 * it touched, the person's answer to its permission) that opens on demand to its input and
 * output; a question the agent asked reads as the question and the answer; a code block has Copy.
 */
import type { FileRef, TranscriptEntry } from '../../src/shared/session-protocol';
import { type Block, type Inline, parseMarkdown } from './markdown';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function inline(runs: readonly Inline[], into: HTMLElement): void {
  for (const run of runs) {
    switch (run.t) {
      case 'text':
        into.append(document.createTextNode(run.text));
        break;
      case 'code':
        into.append(el('code', undefined, run.text));
        break;
      case 'break':
        into.append(el('br'));
        break;
      case 'link': {
        const link = el('span', 'link');
        inline(run.children, link);
        link.title = run.href;
        into.append(link, el('span', 'link-address', ` (${run.href})`));
        break;
      }
      default: {
        const node = el(run.t === 'strong' ? 'strong' : run.t === 'em' ? 'em' : 'del');
        inline(run.children, node);
        into.append(node);
      }
    }
  }
}

/** Copy beside a code block: the host writes the clipboard; the button says it did. The code is read when clicked (a streamed fence grows). */
function copyButton(text: () => string, copy: (text: string) => void): HTMLButtonElement {
  const button = el('button', 'copy', 'Copy');
  button.type = 'button';
  button.setAttribute('aria-label', 'Copy code');
  // The name a screen reader says holds the words shown (Copy, then Copied).
  const say = (shown: string, name: string): void => {
    button.textContent = shown;
    button.setAttribute('aria-label', name);
  };
  button.addEventListener('click', () => {
    copy(text());
    say('Copied', 'Copied');
    setTimeout(() => say('Copy', 'Copy code'), 1500);
  });
  return button;
}

/** A Markdown block as its element (a streamed reply draws its blocks one by one: reply-view.ts). */
export function block(b: Block, copy?: (text: string) => void): HTMLElement {
  switch (b.t) {
    case 'paragraph': {
      const p = el('p');
      inline(b.content, p);
      return p;
    }
    case 'heading': {
      const h = el(`h${Math.min(6, Math.max(3, b.level + 2))}` as 'h3');
      inline(b.content, h);
      return h;
    }
    case 'code': {
      const pre = el('pre');
      const code = el('code', undefined, b.text);
      if (b.lang) pre.dataset.lang = b.lang;
      pre.append(code);
      if (!copy) return pre;
      const wrap = el('div', 'code-block');
      wrap.append(copyButton(() => code.textContent ?? '', copy), pre);
      return wrap;
    }
    case 'quote': {
      const q = el('blockquote');
      for (const child of b.children) q.append(block(child, copy));
      return q;
    }
    case 'list': {
      const list = el(b.ordered ? 'ol' : 'ul');
      if (b.ordered && b.start !== 1) list.setAttribute('start', String(b.start));
      for (const item of b.items) {
        const li = el('li');
        if (item.checked !== undefined) li.append(el('span', 'task', item.checked ? '☑ ' : '☐ '));
        inline(item.content, li);
        for (const child of item.children) li.append(block(child, copy));
        list.append(li);
      }
      return list;
    }
    case 'rule':
      return el('hr');
    case 'table': {
      const table = el('table');
      const head = el('tr');
      for (const cell of b.head) {
        const th = el('th');
        inline(cell, th);
        head.append(th);
      }
      table.append(head);
      for (const row of b.rows) {
        const tr = el('tr');
        for (const cell of row) {
          const td = el('td');
          inline(cell, td);
          tr.append(td);
        }
        table.append(tr);
      }
      return table;
    }
  }
}

export function markdownElement(markdown: string, copy?: (text: string) => void): HTMLElement {
  const root = el('div', 'markdown');
  for (const b of parseMarkdown(markdown)) root.append(block(b, copy));
  return root;
}

const STATUS_TEXT: Record<string, string> = { pending: 'pending', in_progress: 'running', completed: 'done', failed: 'failed', cancelled: 'cancelled' };

const ACTION_TEXT: Record<string, string> = { decline: 'You declined.', cancel: 'Dismissed without an answer.' };

export interface EntryActions {
  openFile(ref: FileRef): void;
  copy(text: string): void;
}

let bodies = 0;

/**
 * A line that opens a section on demand (a button with `aria-expanded`, the section hidden
 * until then): a tool call's input and output. `data-toggle` lets the page keep it open as
 * the entry is replaced.
 */
function disclosure(line: HTMLElement, body: HTMLElement): HTMLButtonElement {
  const button = el('button', 'toggle');
  button.type = 'button';
  button.dataset.toggle = '';
  body.id = `section-${++bodies}`;
  body.hidden = true;
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', body.id);
  button.append(...line.childNodes);
  button.addEventListener('click', () => setOpen(button, body.hidden !== false));
  return button;
}

function setOpen(button: HTMLElement, open: boolean): void {
  button.setAttribute('aria-expanded', String(open));
  const body = document.getElementById(button.getAttribute('aria-controls') ?? '');
  if (body) body.hidden = !open;
}

/** Keeps what the person opened in `old` (thinking, a tool call) open in `next`, which replaces it. */
export function keepOpen(old: HTMLElement, next: HTMLElement): void {
  const sections = (root: HTMLElement): HTMLDetailsElement[] => [...(root instanceof HTMLDetailsElement ? [root] : []), ...root.querySelectorAll('details')];
  const before = sections(old);
  sections(next).forEach((section, i) => {
    if (before[i]) section.open = before[i].open;
  });
  const toggles = (root: HTMLElement): HTMLElement[] => [...root.querySelectorAll<HTMLElement>('[data-toggle]')];
  const was = toggles(old);
  toggles(next).forEach((toggle, i) => {
    if (was[i]?.getAttribute('aria-expanded') === 'true') {
      toggle.setAttribute('aria-expanded', 'true');
      const body = next.querySelector<HTMLElement>(`#${toggle.getAttribute('aria-controls') ?? ''}`);
      if (body) body.hidden = false;
    }
  });
}

function toolElement(entry: Extract<TranscriptEntry, { kind: 'tool' }>, actions: EntryActions): HTMLElement {
  const node = article(`entry tool status-${entry.status}`, `Tool call: ${entry.title}`);
  const line = el('div', 'tool-line');
  const head = el('span');
  head.append(el('span', 'tool-status', STATUS_TEXT[entry.status] ?? entry.status), el('span', 'tool-title', entry.title));
  // What opens on demand: the kind, the command or input where the title does not say it already, the output.
  const body = el('div', 'tool-body');
  body.append(el('div', 'tool-kind', `Kind: ${entry.toolKind}`));
  if (entry.detail && entry.detail.trim() !== entry.title.trim()) body.append(el('pre', 'tool-detail', entry.detail));
  if (entry.output) body.append(el('pre', 'tool-output', entry.output));
  if (body.childElementCount > 1) {
    line.append(disclosure(head, body));
  } else {
    head.className = 'toggle';
    line.append(head);
  }
  const files = [...entry.diffs.map((d) => ({ ref: { path: d.path }, label: `${d.path} +${d.added} −${d.removed}` })), ...entry.locations.filter((l) => !entry.diffs.some((d) => d.path === l.path)).map((l) => ({ ref: l, label: l.line === undefined ? l.path : `${l.path}:${l.line}` }))];
  if (files.length > 0) {
    const list = el('span', 'tool-files');
    for (const f of files) list.append(fileButton(f.ref, f.label, actions));
    line.append(list);
  }
  if (entry.permission) line.append(el('span', `tool-permission ${entry.permission.allowed ? 'allowed' : 'refused'}`, `you answered “${entry.permission.answer}”`));
  node.append(line);
  if (body.childElementCount > 1) node.append(body);
  return node;
}

function questionElement(entry: Extract<TranscriptEntry, { kind: 'question' }>, agentName: string): HTMLElement {
  const node = article('entry question', `Question from ${agentName}`);
  node.append(el('div', 'question-text', entry.message));
  const answer = el('div', 'question-answer');
  if (entry.action === 'accept') {
    if (entry.answers.length === 1) answer.append(el('span', 'answer', entry.answers[0].answer));
    else if (entry.answers.length === 0) answer.append(el('span', 'answer', 'Answered (nothing filled in).'));
    else for (const a of entry.answers) answer.append(el('div', 'answer', `${a.question}: ${a.answer}`));
  } else {
    answer.append(el('span', 'answer', ACTION_TEXT[entry.action] ?? entry.action));
  }
  node.append(answer);
  return node;
}

function fileButton(ref: FileRef, label: string, actions: EntryActions): HTMLElement {
  const button = el('button', 'file', label);
  button.type = 'button';
  button.title = ref.line === undefined ? ref.path : `${ref.path}:${ref.line}`;
  button.addEventListener('click', () => actions.openFile(ref));
  return button;
}

/**
 * An entry a screen reader can tell from the next: an article named for who speaks (the
 * visible "You" or "Plan" is then hidden from it, so it is not said twice).
 */
function article(className: string, name: string, visibleName = false): HTMLElement {
  const node = el('article', className);
  node.setAttribute('aria-label', name);
  if (visibleName) {
    const who = el('div', 'who', name);
    who.setAttribute('aria-hidden', 'true');
    node.append(who);
  }
  return node;
}

/** One transcript entry as its element; the page replaces it whole when the entry changes. */
export function entryElement(entry: TranscriptEntry, actions: EntryActions, agentName = 'Agent'): HTMLElement {
  switch (entry.kind) {
    case 'user': {
      const node = article('entry user', 'You', true);
      node.append(el('div', 'user-text', entry.text));
      return node;
    }
    case 'agent': {
      const node = article('entry agent', agentName);
      node.append(markdownElement(entry.markdown, actions.copy));
      return node;
    }
    case 'thought': {
      const node = el('details', 'entry thought');
      node.append(el('summary', undefined, 'Thinking'), el('div', 'thought-text', entry.text));
      return node;
    }
    case 'tool':
      return toolElement(entry, actions);
    case 'question':
      return questionElement(entry, agentName);
    case 'plan': {
      const node = article('entry plan', 'Plan', true);
      const list = el('ol');
      for (const step of entry.steps) list.append(el('li', `plan-${step.status}`, `${step.status === 'completed' ? '✓ ' : step.status === 'in_progress' ? '▸ ' : ''}${step.content}`));
      node.append(list);
      return node;
    }
    case 'notice':
      return el('div', `entry notice tone-${entry.tone}`, entry.text);
  }
}
