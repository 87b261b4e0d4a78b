/**
 * The Agent Input form page. It renders the form the host sends, validates live with the
 * same core module the host uses, keeps the host up to date with drafts, and posts
 * Submit, Decline or Cancel. The page is kept alive between forms: a new form re-renders
 * it, so only the first form pays for creating the webview. The fields are the browser's own
 * controls (fields.ts): the first paint waits for no component library.
 */
import type { ContentValue } from '../src/elicitation/model';
import { sourceLabel } from '../src/elicitation/request';
import { readField, requiredMessage } from '../src/elicitation/validation';
import type { DraftValue, FormView, HostMessage, PageMessage } from '../src/shared/protocol';
import { createField, type FieldControl } from './fields';
import { wrapFocus } from './focus-wrap';
import { CHECKS_READY_EVENT, loadChecks } from './checks-deferred';
import { readableForm } from './readable';

interface VsCodeApi {
  postMessage(message: PageMessage): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** When this script started, for the benchmark's breakdown of a new panel's start-up. */
const scriptStartedAt = Date.now();
/** This script's nonce, for the one script the page adds itself (the checks). */
const ownNonce = (document.currentScript as HTMLScriptElement | null)?.nonce ?? '';
const vscode = acquireVsCodeApi();
const post = (message: PageMessage): void => vscode.postMessage(message);
const DRAFT_DELAY_MS = 250;
/** The submit keys as this platform writes them (the page handles Ctrl and Cmd alike). */
const SUBMIT_KEYS = /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘+Enter' : 'Ctrl+Enter';

// A violated policy is a bug of ours: the host logs it, and the tests assert there are none.
document.addEventListener('securitypolicyviolation', (event) => {
  post({ type: 'cspViolation', directive: event.violatedDirective, blockedUri: event.blockedURI, sample: event.sample ?? '' });
});

const app = document.getElementById('app')!;
wrapFocus(app);

// A focused control must never sit under the sticky Submit bar: the page's scroll padding
// (styles.css) is the bar's height, however it wraps. Set as the root's own property: a
// custom property there would restyle the whole page (every element inherits it) before the
// first paint.
/** The room left between a focused control and the bar (styles.css's 72 px until measured: 64 + this). */
const BAR_CLEARANCE_PX = 8;
const barHeight = new ResizeObserver((entries) => {
  const height = entries[0]?.borderBoxSize[0]?.blockSize ?? 0;
  document.documentElement.style.scrollPaddingBottom = `${Math.ceil(height) + BAR_CLEARANCE_PX}px`;
});

// The pattern and format checks load after the page (checks-deferred.ts): a field typed in
// before they came had no such verdict yet.
window.addEventListener(CHECKS_READY_EVENT, () => {
  for (const field of current?.fields ?? []) {
    if (current?.touched.has(field.question.id)) field.showError(verdict(field, false).message);
  }
});

interface Current {
  readonly form: FormView;
  readonly fields: FieldControl[];
  readonly touched: Set<string>;
  /** Fields the person changed here (not drafts from elsewhere): a draft from elsewhere never replaces theirs while they are in the field. */
  readonly changedHere: Set<string>;
  /** Submitted, declined or cancelled: the buttons wait for the host's next form. */
  sent: boolean;
}
let current: Current | undefined;
let draftTimer: ReturnType<typeof setTimeout> | undefined;
const pendingDrafts = new Map<string, DraftValue | null>();
/** Drafts from elsewhere that came while the person was in their field (with what the field held then): shown when they leave it, if they changed nothing meanwhile. */
const heldDrafts = new Map<string, { readonly value: DraftValue | null; readonly held: string }>();

function flushDrafts(): void {
  if (draftTimer) clearTimeout(draftTimer);
  draftTimer = undefined;
  if (!current) return;
  for (const [questionId, value] of pendingDrafts) post({ type: 'draft', requestId: current.form.requestId, questionId, value });
  pendingDrafts.clear();
}

function queueDraft(field: FieldControl): void {
  pendingDrafts.set(field.question.id, field.read());
  if (draftTimer) clearTimeout(draftTimer);
  draftTimer = setTimeout(flushDrafts, DRAFT_DELAY_MS);
}

/** The core's verdict on a field; `submitting` also reports a required field left empty. */
function verdict(field: FieldControl, submitting: boolean): { value?: ContentValue; message?: string } {
  const read = readField(field.question, field.read());
  if (!read.ok) return { message: read.message };
  if (read.value === undefined && field.question.required && (submitting || field.question.kind === 'boolean')) {
    return { message: requiredMessage(field.question) };
  }
  return read.value === undefined ? {} : { value: read.value };
}

function validateLive(field: FieldControl): void {
  if (!current) return;
  current.touched.add(field.question.id);
  field.showError(verdict(field, false).message);
}

function submit(): void {
  // Enter in a text field submits the form too: one keypress, one submission.
  if (!current || current.sent) return;
  flushDrafts();
  const values: Record<string, ContentValue | null> = {};
  let firstInvalid: FieldControl | undefined;
  for (const field of current.fields) {
    const { value, message } = verdict(field, true);
    field.showError(message);
    if (message && !firstInvalid) firstInvalid = field;
    Object.defineProperty(values, field.question.id, { value: value ?? null, enumerable: true });
  }
  if (firstInvalid) {
    // Refused here already: the first error gets the focus (and is announced).
    firstInvalid.focus();
    return;
  }
  setSent();
  post({ type: 'submit', requestId: current.form.requestId, values });
}

function finish(type: 'decline' | 'cancel' | 'stepByStep'): void {
  if (!current || current.sent) return;
  flushDrafts();
  setSent();
  post({ type, requestId: current.form.requestId });
}

function setSent(): void {
  current!.sent = true;
  for (const button of app.querySelectorAll('button')) button.disabled = true;
}

/**
 * Submit is the form's submit button, so Enter in a text field submits (the browser's implicit
 * submission); the others are plain buttons.
 */
function button(label: string, onClick: (() => void) | 'submit', secondary: boolean, title?: string): HTMLButtonElement {
  const node = document.createElement('button');
  node.className = secondary ? 'button secondary' : 'button';
  node.textContent = label;
  if (title) node.title = title;
  if (onClick === 'submit') node.type = 'submit';
  else {
    node.type = 'button';
    node.addEventListener('click', onClick);
  }
  return node;
}

function render(shown: FormView): void {
  const renderStartedAt = Date.now();
  const form = readableForm(shown);
  pendingDrafts.clear();
  heldDrafts.clear();
  const header = document.createElement('header');
  const who = document.createElement('div');
  who.className = 'source';
  // Who asks, as every other surface says it.
  who.textContent = sourceLabel(form.asker);
  const message = document.createElement('h1');
  message.className = 'message';
  message.id = 'message';
  message.textContent = form.message;
  header.append(who, message);

  const body = document.createElement('form');
  body.setAttribute('aria-labelledby', 'message');
  body.noValidate = true;
  body.addEventListener('submit', (event) => {
    event.preventDefault();
    submit();
  });
  const fields = form.questions.map((question) => createField(question));
  for (const field of fields) {
    const restored = Object.prototype.hasOwnProperty.call(form.drafts, field.question.id) ? form.drafts[field.question.id] : undefined;
    field.write(restored ?? (field.question.defaultValue as DraftValue | undefined));
    // Only the person's changes fire these events (a draft from elsewhere is written without them).
    const onInput = (): void => {
      current?.changedHere.add(field.question.id);
      validateLive(field);
      queueDraft(field);
    };
    field.root.addEventListener('input', onInput);
    // A finished change goes to the host at once, not after the pause. Captured: the text
    // fields' and the select's change events do not bubble (the select sends no other).
    field.root.addEventListener('change', () => {
      onInput();
      flushDrafts();
    }, true);
    field.root.addEventListener('focusout', (event) => {
      flushDrafts();
      if (!field.root.contains(event.relatedTarget as Node | null)) showHeldDraft(field);
    });
    body.append(field.root);
  }

  // Sticky at the bottom (styles.css): a long form keeps its buttons and their keys in view.
  const actions = document.createElement('div');
  actions.className = 'actions';
  const keys = document.createElement('span');
  keys.className = 'keys';
  keys.textContent = `${SUBMIT_KEYS} to ${form.asker.ownQuestion ? 'run' : 'submit'} · Escape to cancel`;
  actions.append(
    // The person's own question (Run Tool's arguments) has nobody to decline to.
    form.asker.ownQuestion ? button('Run', 'submit', false, `Run the tool with these arguments (${SUBMIT_KEYS})`) : button('Submit', 'submit', false, `Send your answers (${SUBMIT_KEYS})`),
    ...(form.asker.ownQuestion ? [] : [button('Decline', () => finish('decline'), true, 'Tell the server no')]),
    button('Cancel', () => finish('cancel'), true, 'Dismiss without answering (Escape)'),
    keys,
  );
  const stepByStep = document.createElement('a');
  stepByStep.href = '#';
  stepByStep.className = 'step-by-step';
  stepByStep.textContent = 'Answer step by step';
  stepByStep.addEventListener('click', (event) => {
    event.preventDefault();
    finish('stepByStep');
  });
  actions.append(stepByStep);
  // Inside the form: its Submit is the form's, for Enter in a text field.
  body.append(actions);
  barHeight.disconnect();
  barHeight.observe(actions);

  app.replaceChildren(header, body);
  current = { form, fields, touched: new Set(), changedHere: new Set(), sent: false };
  for (const field of fields) {
    const error = form.errors?.[field.question.id];
    if (error) field.showError(error);
  }
  const firstError = fields.find((f) => form.errors?.[f.question.id]);
  (firstError ?? fields[0])?.focus();
  if (!fields[0]) (actions.firstElementChild as HTMLElement | null)?.focus();
  const focusedAt = Date.now();
  onceLoaded(() => post({ type: 'shown', requestId: form.requestId, at: Date.now(), focusedAt, scriptStartedAt, renderStartedAt }));
}

/**
 * VS Code keeps a new page's frame hidden until the page's load event: the first form is on
 * screen from then, later ones (the page kept alive) as they render.
 */
function onceLoaded(then: () => void): void {
  if (document.readyState === 'complete') then();
  else window.addEventListener('load', then, { once: true });
}

function renderIdle(note?: string): void {
  current = undefined;
  const idle = document.createElement('p');
  idle.className = 'idle';
  idle.textContent = note ?? 'No agent is waiting for your input.';
  app.replaceChildren(idle);
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const message = event.data;
  if (message?.type === 'render') render(message.form);
  else if (message?.type === 'idle') renderIdle(message.note);
  else if (message?.type === 'draft') showDraft(message.requestId, message.questionId, message.value);
});

/**
 * A draft set elsewhere (another client of an agent host, the extension that asked): shown in
 * its field, without taking the focus, unless the person is at work in that field. Whether it
 * may come at all is the core's rule (elicitation/answer-origin.ts: another client's never for
 * a question the person changed, nobody's for a secret); the page adds only its focus rule,
 * for what the host could not know yet: a field with a change of theirs not yet sent keeps
 * theirs (it is sent, and wins), and so does the field they are in once they changed it; a
 * field they are in but have not changed shows the draft once they leave it, if they still
 * have not. A field they are not in shows it at once (the asker's own update, say, of a field
 * they left).
 */
function showDraft(requestId: string, questionId: string, value: DraftValue | null): void {
  if (!current || current.sent || current.form.requestId !== requestId) return;
  const field = current.fields.find((f) => f.question.id === questionId);
  if (!field) return;
  if (pendingDrafts.has(questionId)) return;
  if (document.hasFocus() && field.root.contains(document.activeElement)) {
    if (!current.changedHere.has(questionId)) heldDrafts.set(questionId, { value, held: JSON.stringify(field.read()) });
    return;
  }
  heldDrafts.delete(questionId);
  field.write(value);
  validateLive(field);
}

function showHeldDraft(field: FieldControl): void {
  const held = heldDrafts.get(field.question.id);
  heldDrafts.delete(field.question.id);
  if (!current || current.sent || !held || current.changedHere.has(field.question.id) || JSON.stringify(field.read()) !== held.held) return;
  field.write(held.value);
  validateLive(field);
}

// In the capture phase: before any control's own handling. (An open dropdown's list is the
// browser's own popup: it takes its Escape, which never reaches the page.)
document.addEventListener('keydown', (event) => {
  // Ctrl+W and the like close the panel before the draft pause ends: what was typed goes now.
  if (event.ctrlKey || event.metaKey || event.altKey) flushDrafts();
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    submit();
  } else if (event.key === 'Escape' && current) {
    event.preventDefault();
    finish('cancel');
  }
}, true);

// Closing the panel, switching tabs or clicking outside the page: pending drafts go now, while
// the page can still post (a closed panel's page is gone before a timer would fire).
window.addEventListener('blur', flushDrafts);
window.addEventListener('pagehide', flushDrafts);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') flushDrafts();
});

// The first form can come inside the page itself, which saves a round trip through the host.
const initial = document.getElementById('initial-form')?.textContent;
let showing: string | undefined;
if (initial) {
  try {
    const form = JSON.parse(initial) as FormView;
    render(form);
    showing = form.requestId;
  } catch {
    // Unreadable: the host renders the form when the page says it is ready.
  }
}
post({ type: 'ready', ...(showing && { showing }) });
// Only once the page has loaded: a script still loading would hold back the load event, and
// with it the frame VS Code shows. And in a task of its own: VS Code's host shows the frame in
// its own load listener, which runs after ours (ours was added while the page was written), and
// adding the script there held it back (1.2-1.3 ms, medians of 40 loads in headless Chromium; 0.2-0.3 after).
onceLoaded(() => setTimeout(() => loadChecks(app.dataset.checks, ownNonce), 0));
