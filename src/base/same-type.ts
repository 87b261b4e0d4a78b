/**
 * True when two types are the same, modifiers included (`readonly`, optional): for a
 * constant that fails to compile when two spellings of one shape drift apart (the published
 * API's and the core's, the agent host's wire answers and the core's). Types only.
 */
export type SameType<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
