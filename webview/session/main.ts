/**
 * An agent's session page: the transcript the host keeps (replies, thoughts, tool calls,
 * plans), the session's mode and options, and the prompt box with Send and Stop, and Close
 * Session. The host sends entries and what streamed text added; transcript-view.ts draws them
 * frame by frame within a bounded window, and the page posts what the person does. Questions
 * and permissions are not asked here: they come in Elicitation Host's own prompts, like every
 * other question, and the page says when the agent waits for one.
 */
import type { FileRef, SessionHeader, SessionHostMessage, SessionOption, SessionPageMessage } from '../../src/shared/session-protocol';
import { block, entryElement, keepOpen } from './render';
import { TranscriptView } from './transcript-view';

interface VsCodeApi {
  postMessage(message: SessionPageMessage): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (message: SessionPageMessage): void => vscode.postMessage(message);

document.addEventListener('securitypolicyviolation', (event) => {
  post({ type: 'cspViolation', directive: event.violatedDirective, blockedUri: event.blockedURI, sample: event.sample ?? '' });
});

const title = document.getElementById('title')!;
const subtitle = document.getElementById('subtitle')!;
const servers = document.getElementById('servers')!;
const options = document.getElementById('options')!;
const modeWarning = document.getElementById('mode-warning')!;
const transcript = document.getElementById('transcript')!;
const state = document.getElementById('state')!;
const prompt = document.getElementById('prompt') as HTMLTextAreaElement;
const send = document.getElementById('send') as HTMLButtonElement;
const stop = document.getElementById('stop') as HTMLButtonElement;
const closeSession = document.getElementById('close-session') as HTMLButtonElement;

let header: SessionHeader | undefined;
const actions = {
  openFile: (ref: FileRef) => post({ type: 'openFile', path: ref.path, ...(ref.line !== undefined && { line: ref.line }) }),
  copy: (text: string) => post({ type: 'copy', text }),
};

/** Draws `node` in the place of `old`. */
function replaceEntry(old: HTMLElement, node: HTMLElement): void {
  // A collapsed section the person opened (thinking, a tool call) stays open as the entry grows.
  keepOpen(old, node);
  old.replaceWith(node);
}

const view = new TranscriptView(transcript, { element: (entry) => entryElement(entry, actions, header?.agent), replace: replaceEntry, block: (b) => block(b, actions.copy), post });

function select(option: SessionOption): HTMLElement {
  const label = document.createElement('label');
  label.className = 'option';
  label.append(document.createTextNode(`${option.name} `));
  const box = document.createElement('select');
  box.dataset.optionId = option.id;
  for (const o of option.options) {
    const item = document.createElement('option');
    item.value = o.value;
    item.textContent = o.name;
    if (o.description) item.title = o.description;
    box.append(item);
  }
  box.value = option.current;
  box.addEventListener('change', () => post({ type: 'setOption', optionId: option.id, value: box.value }));
  label.append(box);
  return label;
}

const STATE_TEXT: Record<SessionHeader['state'], string> = {
  idle: '',
  running: 'Working…',
  waiting: 'Waiting for your answer (in Elicitation Host’s prompt)',
  closed: 'The agent has ended.',
};

function showHeader(next: SessionHeader): void {
  header = next;
  title.textContent = next.title ? `${next.agent} · ${next.title}` : next.agent;
  subtitle.textContent = next.cwd;
  servers.textContent =
    next.servers.length > 0
      ? `MCP servers given: ${next.servers.map((s) => `${s.name} (${s.transport === 'http' ? 'HTTP' : 'stdio'})`).join(', ')}`
      : (next.serversNote ?? 'No MCP servers given.');
  options.replaceChildren(...[...(next.mode ? [next.mode] : []), ...next.options].map(select));
  modeWarning.textContent = next.modeWarning ?? '';
  modeWarning.hidden = !next.modeWarning;
  state.textContent = next.disabledReason ?? STATE_TEXT[next.state];
  const busy = next.state === 'running' || next.state === 'waiting';
  send.disabled = busy || next.state === 'closed' || next.disabledReason !== undefined;
  prompt.disabled = next.state === 'closed' || next.disabledReason !== undefined;
  stop.hidden = !busy;
  // A reply streams in as many replacements of its entry: a screen reader hears the turn once, when it ends, not every piece.
  transcript.setAttribute('aria-busy', String(next.state === 'running'));
}

function submit(): void {
  const text = prompt.value;
  if (!text.trim() || send.disabled) return;
  post({ type: 'prompt', text });
  prompt.value = '';
}

send.addEventListener('click', submit);
closeSession.addEventListener('click', () => post({ type: 'closeSession' }));
stop.addEventListener('click', () => post({ type: 'cancel' }));
prompt.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    submit();
  }
  if (event.key === 'Escape' && header && (header.state === 'running' || header.state === 'waiting')) post({ type: 'cancel' });
});

/** The newest header of a message (a batch may carry one). */
function headerOf(message: SessionHostMessage): SessionHeader | undefined {
  if (message.type === 'header' || message.type === 'reset') return message.header;
  return message.type === 'batch' ? message.messages.map(headerOf).filter((h) => h !== undefined).at(-1) : undefined;
}

window.addEventListener('message', (event: MessageEvent<SessionHostMessage>) => {
  const message = event.data;
  const next = headerOf(message);
  if (next) showHeader(next);
  view.receive(message);
  if (message.type === 'reset') prompt.focus();
});

post({ type: 'ready' });
