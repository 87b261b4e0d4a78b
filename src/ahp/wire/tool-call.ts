/** A tool call waiting for a confirmation, as the inbox reads it: what it runs, its own options, its kind. Pure. */
import { isRecord } from '../../base/is-record';
import { LIMITS } from '../../elicitation/limits';
import { AHP_LIMITS } from './names';
import { id, list, optional, record, text, words } from './check';

export interface WireConfirmationOption {
  readonly id: string;
  readonly label: string;
  readonly kind: 'approve' | 'deny';
}

export interface WireToolCall {
  readonly toolCallId: string;
  readonly status: string;
  readonly toolName?: string;
  readonly displayName?: string;
  readonly invocationMessage?: string;
  readonly toolInput?: string;
  readonly confirmationTitle?: string;
  readonly options?: readonly WireConfirmationOption[];
  /** `_meta.toolKind` ("terminal" for a shell command), the one hint of `_meta` we read. */
  readonly toolKind?: string;
}

export function readToolCall(v: unknown, path: string): WireToolCall {
  const t = record(v, path);
  const opt = (key: string, limit: number = AHP_LIMITS.labelChars): Record<string, string> => {
    const value = optional(t[key], (x) => words(x, `${path}.${key}`, limit));
    return value === undefined ? {} : { [key]: value };
  };
  const options = optional(t.options, (x) =>
    list(x, `${path}.options`, 20, 'option', (o, p) => {
      const r = record(o, p);
      return r.kind === 'approve' || r.kind === 'deny' ? { id: id(r.id, `${p}.id`), label: text(r.label ?? r.id, `${p}.label`, AHP_LIMITS.labelChars), kind: r.kind } : undefined;
    }).filter((o): o is WireConfirmationOption => o !== undefined),
  );
  const meta = isRecord(t._meta) && typeof t._meta.toolKind === 'string' && t._meta.toolKind.length <= 100 ? { toolKind: t._meta.toolKind } : {};
  return {
    toolCallId: id(t.toolCallId, `${path}.toolCallId`),
    status: text(t.status ?? 'unknown', `${path}.status`, 100),
    ...opt('toolName'),
    ...opt('displayName'),
    ...opt('invocationMessage', LIMITS.messageChars),
    ...opt('toolInput', AHP_LIMITS.toolInputChars),
    ...opt('confirmationTitle'),
    ...(options && options.length > 0 && { options }),
    ...meta,
  };
}
