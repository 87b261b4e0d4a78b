/**
 * One form field per question kind, built from @vscode-elements components. Every piece
 * of server text is set with textContent (or as a property value), never parsed as HTML.
 * Native constraint attributes (pattern, min, max...) are never set: the shared core
 * validates, and a server's pattern must not run in the browser's unbounded engine.
 */
import type { Question, SelectOption } from '../src/elicitation/model';
import type { DraftValue } from '../src/shared/protocol';

/** A rendered field: how to read, restore, focus and mark it. */
export interface FieldControl {
  readonly question: Question;
  readonly root: HTMLElement;
  /** The value as the person left it: typed where the kind is typed, raw text for text boxes. */
  read(): DraftValue | null;
  /** Shows a value; undefined leaves the field as it is, null empties it. */
  write(value: DraftValue | null | undefined): void;
  focus(): void;
  showError(message: string | undefined): void;
}

let sequence = 0;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

type Control = HTMLElement & Record<string, unknown> & { updateComplete?: Promise<unknown> };

function custom(tag: string, className?: string): Control {
  const node = document.createElement(tag) as Control;
  if (className) node.className = className;
  return node;
}

/** Local `YYYY-MM-DDTHH:mm` for a datetime-local input, from an RFC 3339 date-time. */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** An RFC 3339 date-time (UTC) from a datetime-local value, which has no zone. */
export function fromLocalInput(local: string): string {
  if (local === '') return '';
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString().replace(/\.000Z$/, 'Z');
}

const INPUT_TYPES: Record<string, string> = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };

interface Frame {
  readonly root: HTMLElement;
  /** Shows the core's message (or none), styled on the control and told to screen readers. */
  readonly showError: (message: string | undefined) => void;
}

/**
 * The label, the control, the helper text and the error line, wired for screen readers.
 * The name comes from vscode-label (it sets the components' own `label`, or
 * aria-labelledby on a group). The notes below the control are tied to what a screen
 * reader is on: a group itself (by id), else the input inside the component's shadow root,
 * which ids cannot reach and to which vscode-elements passes nothing but the label: that
 * input gets the notes' text as its description, kept up to date with the error.
 */
function frame(question: Question, control: Control, controlId: string): Frame {
  const root = custom('vscode-form-group', 'field');
  root.setAttribute('variant', 'vertical');
  root.dataset.questionId = question.id;
  const label = custom('vscode-label');
  label.setAttribute('id', `${controlId}-label`);
  label.setAttribute('for', controlId);
  label.textContent = question.title;
  if (question.required) label.setAttribute('required', '');
  root.append(label, control);
  /** What a screen reader says after the name: the helper text, the secret warning, the error. */
  const notes: HTMLElement[] = [];
  if (question.description) {
    const helper = custom('vscode-form-helper', 'helper');
    helper.textContent = question.description;
    notes.push(helper);
  }
  if (question.looksSecret) notes.push(el('div', 'secret-warning', 'This looks like a request for a secret. MCP servers must not ask for passwords or keys in a form.'));
  const error = el('div', 'error');
  // Announced when it changes.
  error.setAttribute('role', 'alert');
  error.setAttribute('aria-live', 'assertive');
  notes.push(error);
  notes.forEach((note, i) => (note.id = `${controlId}-note${i}`));
  root.append(...notes);
  control.setAttribute('aria-describedby', notes.map((note) => note.id).join(' '));
  const describe = (): void => {
    const inner = control.shadowRoot?.querySelector('input, textarea, [role="combobox"]');
    if (inner) {
      control.removeAttribute('aria-describedby');
      // Not the native `required`: that would start the browser's own validation.
      if (question.required) inner.setAttribute('aria-required', 'true');
      inner.setAttribute('aria-description', notes.map((note) => note.textContent).filter(Boolean).join('. '));
    }
    (inner ?? control).setAttribute('aria-invalid', String(error.textContent !== ''));
  };
  // The component renders its shadow root once connected.
  void control.updateComplete?.then(describe);
  return {
    root,
    showError(message) {
      error.textContent = message ?? '';
      control.invalid = message !== undefined;
      void Promise.resolve(control.updateComplete).then(describe);
    },
  };
}

function textField(question: Extract<Question, { kind: 'text' | 'number' | 'integer' }>, id: string): FieldControl {
  // A text area only where the server allows long text; an unbounded string is usually a short answer.
  const long = question.kind === 'text' && !question.format && question.maxLength !== undefined && question.maxLength > 200;
  const input = custom(long ? 'vscode-textarea' : 'vscode-textfield', 'control');
  input.id = id;
  if (long) input.rows = 3;
  if (question.kind === 'text') {
    const type = question.format ? INPUT_TYPES[question.format] : question.looksSecret ? 'password' : 'text';
    if (!long) input.type = type;
  } else {
    input.type = 'number';
    // Arrow keys and the spinner step by 1. A number field still takes 2.5: the form does not
    // validate natively, and styles.css keeps the browser's step mismatch from painting it red.
    input.step = 1;
  }
  const { root, showError } = frame(question, input, id);
  const isDateTime = question.kind === 'text' && question.format === 'date-time';
  return {
    question,
    root,
    read() {
      const raw = String(input.value ?? '');
      if (raw === '') return null;
      if (isDateTime) return fromLocalInput(raw);
      return raw;
    },
    write(value) {
      if (value === undefined) return;
      const text = value === null ? '' : String(value);
      input.value = isDateTime ? toLocalInput(text) : text;
    },
    focus: () => input.focus(),
    showError,
  };
}

function checkboxField(question: Extract<Question, { kind: 'boolean' }>, id: string): FieldControl {
  const box = custom('vscode-checkbox', 'control');
  box.id = id;
  // The description is the checkbox's own text (what checking it means); the label names the question.
  box.textContent = question.description ?? question.title;
  const { root, showError } = frame({ ...question, description: undefined } as Question, box, id);
  if (question.description) {
    // The checkbox is named by its own text; the title names the question around it.
    root.setAttribute('role', 'group');
    root.setAttribute('aria-labelledby', `${id}-label`);
  }
  // An optional yes/no without a default starts unanswered (drawn indeterminate) and stays
  // out of the answers until the person ticks or unticks it; Clear makes it unanswered again.
  const triState = !question.required && question.defaultValue === undefined;
  let answered = !triState;
  const clear = el('a', 'clear', 'Clear');
  const setAnswered = (value: boolean): void => {
    answered = value || !triState;
    box.indeterminate = !answered;
    clear.hidden = !triState || !answered;
  };
  if (triState) {
    clear.href = '#';
    clear.title = 'Leave this question unanswered';
    clear.addEventListener('click', (event) => {
      event.preventDefault();
      box.checked = false;
      setAnswered(false);
      // The form's listeners send the draft (now none) and validate.
      root.dispatchEvent(new Event('change', { bubbles: true }));
      box.focus();
    });
    // On the checkbox's line, right after it.
    const line = el('div', 'check-line');
    box.replaceWith(line);
    line.append(box, clear);
    // Captured on the field before the form's own listeners read it: a toggle answers it.
    root.addEventListener('change', (event) => event.composedPath().includes(box) && setAnswered(true), true);
    box.setAttribute('aria-description', 'Not answered until you tick or untick it');
  }
  setAnswered(!triState);
  return {
    question,
    root,
    read: () => (answered ? Boolean(box.checked) : null),
    write(value) {
      if (value === undefined || value === null) {
        box.checked = false;
        return setAnswered(!triState);
      }
      box.checked = value === true;
      setAnswered(true);
    },
    focus: () => box.focus(),
    showError,
  };
}

/** Up to five options as radio buttons; beyond that a dropdown. */
function singleSelectField(question: Extract<Question, { kind: 'single-select' }>, id: string): FieldControl {
  if (question.options.length <= 5) {
    const group = custom('vscode-radio-group', 'control');
    group.id = id;
    group.setAttribute('variant', 'vertical');
    const radios = question.options.map((option, i) => {
      const radio = custom('vscode-radio');
      radio.id = `${id}-${i}`;
      radio.name = id;
      radio.value = option.value;
      radio.textContent = option.description ? `${option.label} — ${option.description}` : option.label;
      group.append(radio);
      return radio;
    });
    const { root, showError } = frame(question, group, id);
    return {
      question,
      root,
      read: () => (radios.find((r) => r.checked)?.value as string | undefined) ?? null,
      write(value) {
        if (value === undefined) return;
        for (const radio of radios) radio.checked = value !== null && radio.value === value;
      },
      focus: () => (radios.find((r) => r.checked) ?? radios[0])?.focus(),
      showError,
    };
  }
  const select = custom('vscode-single-select', 'control');
  select.id = id;
  const options: SelectOption[] = [...(question.required ? [] : [{ value: '', label: '(no answer)' }]), ...question.options];
  for (const option of options) {
    const node = custom('vscode-option');
    node.value = option.value;
    node.textContent = option.label;
    if (option.description) node.description = option.description;
    select.append(node);
  }
  const { root, showError } = frame(question, select, id);
  return {
    question,
    root,
    read: () => {
      const value = String(select.value ?? '');
      return value === '' ? null : value;
    },
    write(value) {
      if (value !== undefined) select.value = value === null ? '' : String(value);
    },
    focus: () => select.focus(),
    showError,
  };
}

function multiSelectField(question: Extract<Question, { kind: 'multi-select' }>, id: string): FieldControl {
  const group = custom('vscode-checkbox-group', 'control');
  group.id = id;
  group.setAttribute('variant', 'vertical');
  const boxes = question.options.map((option, i) => {
    const box = custom('vscode-checkbox');
    box.id = `${id}-${i}`;
    box.value = option.value;
    box.textContent = option.description ? `${option.label} — ${option.description}` : option.label;
    group.append(box);
    return box;
  });
  const { root, showError } = frame(question, group, id);
  const { minItems: min, maxItems: max } = question;
  if (min !== undefined || max !== undefined) {
    const hint = el('div', 'hint', min !== undefined && max !== undefined ? `Choose ${min === max ? min : `${min} to ${max}`}.` : min !== undefined ? `Choose at least ${min}.` : `Choose at most ${max}.`);
    hint.id = `${id}-hint`;
    root.insertBefore(hint, group.nextSibling);
    group.setAttribute('aria-describedby', `${hint.id} ${group.getAttribute('aria-describedby')}`);
  }
  return {
    question,
    root,
    read: () => boxes.filter((b) => b.checked).map((b) => b.value as string),
    write(value) {
      if (value !== null && !Array.isArray(value)) return;
      for (const box of boxes) box.checked = value !== null && value.includes(box.value as string);
    },
    focus: () => boxes[0]?.focus(),
    showError,
  };
}

export function createField(question: Question): FieldControl {
  const id = `field-${++sequence}`;
  switch (question.kind) {
    case 'text':
    case 'number':
    case 'integer':
      return textField(question, id);
    case 'boolean':
      return checkboxField(question, id);
    case 'single-select':
      return singleSelectField(question, id);
    case 'multi-select':
      return multiSelectField(question, id);
  }
}
