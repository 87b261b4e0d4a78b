/**
 * Whether the count of waiting questions should stand out: a question arrived while the
 * window was not focused (the person is elsewhere and its prompt went unseen), until the
 * window is focused again or nothing waits. Pure (lint holds it): the caller reads the
 * window's focus and the open requests.
 */
export class Attention {
  private seen = new Set<string>();
  private standing = false;

  /** The open requests' ids now and whether the window is focused; true while the count should stand out. */
  update(openIds: readonly string[], focused: boolean): boolean {
    const arrived = openIds.some((id) => !this.seen.has(id));
    this.seen = new Set(openIds);
    if (focused || openIds.length === 0) this.standing = false;
    else if (arrived) this.standing = true;
    return this.standing;
  }
}
