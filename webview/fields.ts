/**
 * One form field per question kind, built from the browser's own controls (input, textarea,
 * select, radios in a fieldset) and drawn like VS Code's by styles.css: nothing to load or
 * upgrade before the first paint. Every piece of server text is set with textContent (or as
 * a property value), never parsed as HTML. Native constraint attributes (pattern, min,
 * max...) are never set: the shared core validates, and a server's pattern must not run in
 * the browser's unbounded engine.
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

/** An option's text: its label, and its description after a dash. */
const optionText = (option: SelectOption): string => (option.description ? `${option.label} — ${option.description}` : option.label);

interface Frame {
  readonly root: HTMLElement;
  /** Shows the core's message (or none), styled on the control and told to screen readers. */
  readonly showError: (message: string | undefined) => void;
}

interface FrameOptions {
  /** A fieldset and legend around several controls, not a label for one. */
  readonly group: boolean;
  /** What carries the description and the state: the control by default, the fieldset for a group. */
  readonly described?: HTMLElement;
  /** Notes of the field's own kind, before the helper text. */
  readonly extraNotes?: HTMLElement[];
  /** A group's role where it is more than a group. */
  readonly role?: 'radiogroup';
}

/**
 * The field around a control: its name (a label for one control, a legend for a group), the
 * helper text, the secret warning and the error line below, all tied by aria-describedby to
 * what a screen reader is on.
 */
function frame(question: Question, control: HTMLElement, id: string, options: FrameOptions): Frame {
  const root = el(options.group ? 'fieldset' : 'div', 'field');
  root.dataset.questionId = question.id;
  if (options.role) root.setAttribute('role', options.role);
  const described = options.described ?? (options.group ? root : control);
  const name = el(options.group ? 'legend' : 'label', 'label', question.title);
  if (question.required) name.classList.add('required');
  if (name instanceof HTMLLabelElement) name.htmlFor = control.id;
  root.append(name, control);
  const notes: HTMLElement[] = [...(options.extraNotes ?? [])];
  if (question.description) notes.push(el('div', 'helper', question.description));
  if (question.looksSecret) notes.push(el('div', 'secret-warning', 'This looks like a request for a secret. MCP servers must not ask for passwords or keys in a form.'));
  const error = el('div', 'error');
  // Announced when it changes.
  error.setAttribute('role', 'alert');
  error.setAttribute('aria-live', 'assertive');
  notes.push(error);
  notes.forEach((note, i) => (note.id ||= `${id}-note${i}`));
  root.append(...notes.filter((note) => !note.parentNode));
  described.setAttribute('aria-describedby', notes.map((note) => note.id).join(' '));
  // Not the native `required`: that would start the browser's own validation. A plain group
  // takes no aria-required (its controls are what a screen reader stops at).
  const stateful = described !== root || root.getAttribute('role') === 'radiogroup';
  if (question.required && stateful) described.setAttribute('aria-required', 'true');
  if (stateful) described.setAttribute('aria-invalid', 'false');
  return {
    root,
    showError(message) {
      error.textContent = message ?? '';
      if (stateful) described.setAttribute('aria-invalid', String(message !== undefined));
      root.classList.toggle('invalid', message !== undefined);
    },
  };
}

function textField(question: Extract<Question, { kind: 'text' | 'number' | 'integer' }>, id: string): FieldControl {
  // A text area only where the server allows long text; an unbounded string is usually a short answer.
  const long = question.kind === 'text' && !question.format && question.maxLength !== undefined && question.maxLength > 200;
  const input: HTMLInputElement | HTMLTextAreaElement = long ? el('textarea', 'control') : el('input', 'control');
  input.id = id;
  if (input instanceof HTMLTextAreaElement) input.rows = 3;
  else if (question.kind === 'text') input.type = question.format ? INPUT_TYPES[question.format] : question.looksSecret ? 'password' : 'text';
  else {
    input.type = 'number';
    // Arrow keys and the spinner step by 1. A number field still takes 2.5: the form does not
    // validate natively, and nothing styles the browser's own :invalid.
    input.step = '1';
  }
  // Server text is no word to learn, and a secret must not be offered back elsewhere.
  input.spellcheck = false;
  input.autocomplete = 'off';
  const { root, showError } = frame(question, input, id, { group: false });
  const isDateTime = question.kind === 'text' && question.format === 'date-time';
  return {
    question,
    root,
    read() {
      const raw = input.value;
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

/** A checkbox (or radio) with its own label on one line. */
function checkLine(id: string, text: string, type: 'checkbox' | 'radio' = 'checkbox'): { line: HTMLElement; box: HTMLInputElement; label: HTMLLabelElement } {
  const line = el('div', 'check-line');
  const box = el('input', type === 'checkbox' ? 'check' : 'radio');
  box.type = type;
  box.id = id;
  const label = el('label', undefined, text);
  label.htmlFor = id;
  line.append(box, label);
  return { line, box, label };
}

function checkboxField(question: Extract<Question, { kind: 'boolean' }>, id: string): FieldControl {
  // With a description, it is the checkbox's own text (what checking it means) and the title
  // names the question around it, as a group; without, the title is the checkbox's text.
  const grouped = question.description !== undefined;
  const { line, box, label } = checkLine(id, question.description ?? question.title);
  // An optional yes/no without a default starts unanswered and stays out of the answers until
  // the person ticks or unticks it; Clear makes it unanswered again. Unanswered, the box is
  // drawn (and exposed to screen readers) as mixed, and the words beside it say so.
  const triState = !question.required && question.defaultValue === undefined;
  const state = el('span', 'unanswered', 'Not answered');
  state.id = `${id}-state`;
  const clear = el('a', 'clear', 'Clear');
  let answered = !triState;
  const setAnswered = (value: boolean): void => {
    answered = value || !triState;
    box.indeterminate = !answered;
    // Emptied, not hidden: a hidden element named in aria-describedby would still be read.
    state.textContent = answered ? '' : 'Not answered';
    clear.hidden = !triState || !answered;
  };
  if (triState) {
    clear.href = '#';
    clear.title = 'Leave this question unanswered';
    line.append(state, clear);
  }
  const extraNotes = triState ? [state] : [];
  const { root, showError } = frame({ ...question, description: undefined } as Question, line, id, { group: grouped, described: box, extraNotes });
  if (!grouped) {
    // The line's own label names the checkbox: the frame's would say the title twice.
    root.querySelector(':scope > label.label')?.remove();
    label.className = 'label';
    if (question.required) label.classList.add('required');
  }
  if (triState) {
    clear.addEventListener('click', (event) => {
      event.preventDefault();
      box.checked = false;
      setAnswered(false);
      // The form's listeners send the draft (now none) and validate.
      root.dispatchEvent(new Event('change', { bubbles: true }));
      box.focus();
    });
    // Captured on the field before the form's own listeners read it: a toggle answers it.
    root.addEventListener('change', (event) => event.target === box && setAnswered(true), true);
  }
  setAnswered(!triState);
  return {
    question,
    root,
    read: () => (answered ? box.checked : null),
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
    const list = el('div', 'choices');
    const radios = question.options.map((option, i) => {
      const { line, box } = checkLine(`${id}-${i}`, optionText(option), 'radio');
      box.name = id;
      box.value = option.value;
      list.append(line);
      return box;
    });
    // A fieldset may be a radiogroup: the radios inside are read as one choice among them.
    const { root, showError } = frame(question, list, id, { group: true, role: 'radiogroup' });
    return {
      question,
      root,
      read: () => radios.find((r) => r.checked)?.value ?? null,
      write(value) {
        if (value === undefined) return;
        for (const radio of radios) radio.checked = value !== null && radio.value === value;
      },
      focus: () => (radios.find((r) => r.checked) ?? radios[0])?.focus(),
      showError,
    };
  }
  const select = el('select', 'control');
  select.id = id;
  const options: SelectOption[] = [...(question.required ? [] : [{ value: '', label: '(no answer)' }]), ...question.options];
  select.append(...options.map((option) => {
    const node = el('option', undefined, optionText(option));
    node.value = option.value;
    return node;
  }));
  const { root, showError } = frame(question, select, id, { group: false });
  return {
    question,
    root,
    read: () => (select.value === '' ? null : select.value),
    write(value) {
      if (value === undefined) return;
      select.value = value === null ? '' : String(value);
    },
    focus: () => select.focus(),
    showError,
  };
}

function multiSelectField(question: Extract<Question, { kind: 'multi-select' }>, id: string): FieldControl {
  const list = el('div', 'choices');
  const boxes = question.options.map((option, i) => {
    const { line, box } = checkLine(`${id}-${i}`, optionText(option));
    box.value = option.value;
    list.append(line);
    return box;
  });
  const { minItems: min, maxItems: max } = question;
  const hints: HTMLElement[] = [];
  if (min !== undefined || max !== undefined) {
    const hint = el('div', 'hint', min !== undefined && max !== undefined ? `Choose ${min === max ? min : `${min} to ${max}`}.` : min !== undefined ? `Choose at least ${min}.` : `Choose at most ${max}.`);
    hint.id = `${id}-hint`;
    hints.push(hint);
  }
  const { root, showError } = frame(question, list, id, { group: true, extraNotes: hints });
  return {
    question,
    root,
    read: () => boxes.filter((b) => b.checked).map((b) => b.value),
    write(value) {
      if (value !== null && !Array.isArray(value)) return;
      for (const box of boxes) box.checked = value !== null && value.includes(box.value);
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
