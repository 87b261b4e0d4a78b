/**
 * An input request: one question put to the person, whatever protocol it came by
 * (MCP `elicitation/create`, an input-required result, a -32042 error, the extension API).
 */
import type { Question } from './model';
import { withoutInvisible } from './plain-text';

export interface RequestSource {
  /** The configured name of the server asking, or the display name of the extension asking. Always shown. */
  readonly server: string;
  /**
   * Who `server` names: an MCP server (the default), another VS Code extension (shown as
   * "Extension: name") or an ACP agent the person configured (its own questions and permissions).
   */
  readonly requester?: 'server' | 'extension' | 'agent';
  /** The tool call this request belongs to, when known. */
  readonly tool?: string;
  /** The tool is annotated `destructiveHint: true`. */
  readonly destructive?: boolean;
  /** The agent whose call asked (the gateway's downstream client, from its `clientInfo`), when known. */
  readonly agent?: string;
  /**
   * The ACP agent session the question belongs to, by its title ("for session 'fix the tests'"):
   * the agent's own question, or (with `agent`) a question of a server we gave that session.
   */
  readonly session?: string;
  /**
   * The person started the call this question belongs to themselves (Run Tool), so a modal
   * is warranted for it; a question from any other call, or from no known call, never gets one.
   */
  readonly personStarted?: boolean;
  /**
   * The person's own question: Run Tool asking for the arguments of the tool they chose.
   * Nobody is there to decline to, so it offers Run and Cancel only.
   */
  readonly ownQuestion?: boolean;
  /**
   * The question approves something an agent is about to do (a permission): nothing that
   * allows is ever preselected; where the question names no default, Decline is.
   */
  readonly approval?: boolean;
  /**
   * The question belongs to a background task (MCP Tasks): its tool call may have
   * returned long ago, or nobody waits on it at all. Headed "tool (background task)".
   */
  readonly background?: boolean;
}

/**
 * The whole of what a person approves when the message shows only part of it (a long
 * command: its start, its end and what runs, see fit-text.ts). A surface that cannot show
 * it all offers to open it whole before the person decides.
 */
export interface WholeInput {
  /** What it is, in a few words: "command", "file content", "edits", "input". */
  readonly name: string;
  /** As the agent sent it. */
  readonly text: string;
  /** The language to show it in (a VS Code language id): shellscript, powershell, json, plaintext. */
  readonly language: string;
}

/** One change of a file's text, as an agent proposes it: `oldText` replaced by `newText`; no `oldText`: the whole new text. */
export interface TextEdit {
  readonly oldText?: string;
  readonly newText: string;
}

/**
 * A file an approval would change (an agent's edit), for a surface that can show the change
 * before the person decides ("View Diff"). Set by our own code, never by a server.
 */
export interface FileChange {
  /** As the agent gave it. */
  readonly path: string;
  /** In the order they apply. */
  readonly edits: readonly TextEdit[];
  /** The folders it must lead inside (the session's): a surface checks again before it reads the file. */
  readonly folders: readonly string[];
  /** Why it is not shown (outside the folders, too large), in words after "not shown:". */
  readonly refused?: string;
}

/**
 * A select question that also takes the person's own answer (a live request's
 * `allowFreeformInput`): the text question that holds it comes right after the select
 * (freeform.ts). Set by our own code (live-ask.ts), never read from a schema.
 */
export interface OwnAnswerPair {
  readonly selectId: string;
  readonly ownId: string;
  /** One of the two must be answered (neither question is required on its own). */
  readonly required: boolean;
}

/**
 * What a permission's choices do, for the History to say what was chosen (allowed once,
 * refused always...). Set by our own code (elicitation/permission.ts), never by a server.
 */
export interface PermissionRecord {
  /** Each choice by its id (the answer of the question `decision`): whether it allows, whether it lasts. */
  readonly choices: readonly { readonly id: string; readonly allows: boolean; readonly lasts: boolean }[];
  /** What a dismissal answered: a refusal (ACP, an agent host, the prompt tool), or nothing (Claude Code's hook then asks in its own terminal). */
  readonly dismissal: 'refuses' | 'undecided';
}

export interface FormInputRequest {
  readonly id: string;
  readonly mode: 'form';
  readonly source: RequestSource;
  readonly message: string;
  readonly questions: readonly Question[];
  readonly createdAt: number;
  /** Set when the message shows only part of what is approved. */
  readonly whole?: WholeInput;
  /** The selects that take the person's own answer, and the text questions that hold it. */
  readonly ownAnswers?: readonly OwnAnswerPair[];
  /** The files the approval would change, when the asker can say how (an agent's edit). */
  readonly changes?: readonly FileChange[];
  /** Set when the question is a permission: what its choices do. */
  readonly permission?: PermissionRecord;
}

export interface UrlInputRequest {
  readonly id: string;
  readonly mode: 'url';
  readonly source: RequestSource;
  readonly message: string;
  readonly url: string;
  readonly questions: readonly [];
  readonly createdAt: number;
}

export type InputRequest = FormInputRequest | UrlInputRequest;

/**
 * Who asks, in plain words: "server · tool", "Extension: name", ", for <agent>" when an
 * agent's call asked through the gateway, and ", for session '<title>'" when an ACP agent
 * asks in one of its sessions. Each surface escapes it as it needs.
 */
export function sourceLabel(source: RequestSource): string {
  const who = source.requester === 'extension' ? `Extension: ${source.server}` : source.server;
  const tool = source.tool && source.background ? `${source.tool} (background task)` : source.tool;
  const what = tool ? `${who} · ${tool}` : source.background ? `${who} (background task)` : who;
  const forWhom = source.agent
    ? `, for ${source.agent}${source.session !== undefined ? ` in session '${source.session}'` : ''}`
    : source.session !== undefined
      ? `, for session '${source.session}'`
      : '';
  return withoutInvisible(`${what}${forWhom}`);
}

/**
 * `pick-other` and `pick-many-other`: one select that takes the person's own answer, asked
 * as a pick of its options plus "Other…", which opens a box for that answer.
 */
export type Presentation = 'confirm' | 'pick' | 'pick-many' | 'pick-other' | 'pick-many-other' | 'input' | 'form' | 'url';

export interface PresentationOptions {
  /** Ask everything in the form panel (a user setting). */
  readonly forceForm: boolean;
}

/** The pair whose select question this is, when it takes the person's own answer. */
export function ownAnswerPair(request: InputRequest, selectId: string): OwnAnswerPair | undefined {
  return request.mode === 'form' ? request.ownAnswers?.find((p) => p.selectId === selectId) : undefined;
}

/** Chooses the lightest surface that can ask the whole request. */
export function choosePresentation(request: InputRequest, options: PresentationOptions): Presentation {
  if (request.mode === 'url') return 'url';
  if (options.forceForm) return 'form';
  const { questions } = request;
  if (questions.length === 0) return 'confirm';
  // A select and the text question that holds the person's own answer to it: one question to them.
  if (questions.length === 2 && ownAnswerPair(request, questions[0].id)?.ownId === questions[1].id) {
    return questions[0].kind === 'multi-select' ? 'pick-many-other' : 'pick-other';
  }
  if (questions.length > 1) return 'form';
  switch (questions[0].kind) {
    case 'boolean':
    case 'single-select':
      return 'pick';
    case 'multi-select':
      return 'pick-many';
    default:
      return 'input';
  }
}
