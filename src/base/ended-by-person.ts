/**
 * Why a question closed when the person closed it themselves somewhere else (Stop on an
 * agent's turn): the surfaces that say "this question closed" stay quiet, since the person
 * did it and saw it happen; the History still records it with the reason.
 */
const BY_THE_PERSON = Symbol('ended by the person');

export function endedByThePerson(message: string): Error {
  return Object.assign(new Error(message), { [BY_THE_PERSON]: true });
}

export function isEndedByThePerson(reason: unknown): boolean {
  return reason instanceof Error && (reason as Error & { [BY_THE_PERSON]?: boolean })[BY_THE_PERSON] === true;
}
