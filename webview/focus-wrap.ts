/**
 * Tab and Shift+Tab go round the form page: off its last control back to its first, and
 * back from its first (or from nowhere in particular) to its last. Without this, focus would
 * leave the webview for the workbench behind it, and a keyboard user would have to find
 * their way back into the form.
 */

/** What Tab stops at, in order: a radio group is one stop (its checked radio, else its first). */
export function tabStops(root: ParentNode): HTMLElement[] {
  const candidates = root.querySelectorAll<HTMLElement>('input, select, textarea, button, a[href], [tabindex]');
  const stops: HTMLElement[] = [];
  const groups = new Set<string>();
  for (const node of candidates) {
    if (node.tabIndex < 0 || (node as HTMLButtonElement).disabled || node.getClientRects().length === 0) continue;
    if (node instanceof HTMLInputElement && node.type === 'radio' && node.name) {
      if (groups.has(node.name)) continue;
      groups.add(node.name);
      const group = [...root.querySelectorAll<HTMLInputElement>('input[type="radio"]')].filter((radio) => radio.name === node.name);
      stops.push(group.find((radio) => radio.checked) ?? node);
      continue;
    }
    stops.push(node);
  }
  return stops;
}

/** The same stop: a radio stands for every radio of its group. */
function sameStop(a: Element | null, b: HTMLElement | undefined): boolean {
  if (!a || !b) return false;
  if (a === b) return true;
  return a instanceof HTMLInputElement && b instanceof HTMLInputElement && a.type === 'radio' && b.type === 'radio' && a.name !== '' && a.name === b.name;
}

export function wrapFocus(root: HTMLElement): void {
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab' || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    const stops = tabStops(root);
    if (stops.length === 0) return;
    const active = document.activeElement;
    const nowhere = !active || active === document.body || !root.contains(active);
    const target = event.shiftKey
      ? nowhere || sameStop(active, stops[0]) ? stops[stops.length - 1] : undefined
      : nowhere || sameStop(active, stops[stops.length - 1]) ? stops[0] : undefined;
    if (!target) return;
    event.preventDefault();
    target.focus();
  });
}
