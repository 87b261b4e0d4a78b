/**
 * Markdown blocks and transcript entries as elements. Every piece of agent text is set with
 * textContent; links show their address and are never followed from the page (the agent's
 * text is not trusted: a link opens only through the host's link prompt, which this page does
 * not offer).
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

/** A Markdown block as its element (a streamed reply draws its blocks one by one: reply-view.ts). */
export function block(b: Block): HTMLElement {
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
      return pre;
    }
    case 'quote': {
      const q = el('blockquote');
      for (const child of b.children) q.append(block(child));
      return q;
    }
    case 'list': {
      const list = el(b.ordered ? 'ol' : 'ul');
      if (b.ordered && b.start !== 1) list.setAttribute('start', String(b.start));
      for (const item of b.items) {
        const li = el('li');
        if (item.checked !== undefined) li.append(el('span', 'task', item.checked ? '☑ ' : '☐ '));
        inline(item.content, li);
        for (const child of item.children) li.append(block(child));
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

export function markdownElement(markdown: string): HTMLElement {
  const root = el('div', 'markdown');
  for (const b of parseMarkdown(markdown)) root.append(block(b));
  return root;
}

const STATUS_TEXT: Record<string, string> = { pending: 'pending', in_progress: 'running', completed: 'done', failed: 'failed', cancelled: 'cancelled' };

export interface EntryActions {
  openFile(ref: FileRef): void;
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
      node.append(markdownElement(entry.markdown));
      return node;
    }
    case 'thought': {
      const node = el('details', 'entry thought');
      node.append(el('summary', undefined, 'Thinking'), el('div', 'thought-text', entry.text));
      return node;
    }
    case 'tool': {
      const node = article(`entry tool status-${entry.status}`, `Tool call: ${entry.title}`);
      const head = el('div', 'tool-head');
      head.append(el('span', 'tool-status', STATUS_TEXT[entry.status] ?? entry.status), el('span', 'tool-title', entry.title), el('span', 'tool-kind', entry.toolKind));
      node.append(head);
      if (entry.detail) node.append(el('pre', 'tool-detail', entry.detail));
      const files = [...entry.diffs.map((d) => ({ ref: { path: d.path }, label: `${d.path} +${d.added} −${d.removed}` })), ...entry.locations.filter((l) => !entry.diffs.some((d) => d.path === l.path)).map((l) => ({ ref: l, label: l.line === undefined ? l.path : `${l.path}:${l.line}` }))];
      if (files.length > 0) {
        const list = el('div', 'tool-files');
        for (const f of files) list.append(fileButton(f.ref, f.label, actions));
        node.append(list);
      }
      if (entry.output) {
        const out = el('details', 'tool-output');
        out.append(el('summary', undefined, 'Output'), el('pre', undefined, entry.output));
        node.append(out);
      }
      return node;
    }
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
