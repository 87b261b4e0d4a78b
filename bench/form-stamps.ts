/**
 * One ask_form_now question's way from the fixture server to the person, read the same way by
 * the spans benches (spans.ts, first-call.ts): the server's stamps (the call received, the
 * question sent: its records) and the form panel's `formShown` (the broker having the
 * question, the panel handed it, the page rendering, the field focused), and the spans
 * between them.
 */
import type { Ui } from '../test/e2e/ui-setup';

export interface QuestionStamps {
  readonly received: number;
  readonly sent: number;
  readonly created: number;
  readonly asked: number;
  readonly render: number;
  readonly focused: number;
}

/** The `record`th ask_form_now call's stamps, with its form's `formShown` event. */
export function questionStamps(ui: Ui, shown: Record<string, unknown>, record: number): QuestionStamps {
  return {
    received: Number(ui.records().filter((r) => r.tool === 'ask_form_now:received')[record]?.outcome.at),
    sent: Number(ui.records().filter((r) => r.tool === 'ask_form_now:sent')[record]?.outcome.at),
    created: Number(shown.createdAt),
    asked: Number(shown.askedAt),
    render: Number(shown.renderStartedAt),
    focused: Number(shown.at),
  };
}

/** From the call reaching our gateway (or starting, for Run Tool) to the field focused, span by span. */
export function questionSpans(s: QuestionStamps, atGateway: number) {
  return {
    toServer: s.received - atGateway,
    server: s.sent - s.received,
    toBroker: s.created - s.sent,
    toPanel: s.asked - s.created,
    toRender: s.render - s.asked,
    toFocus: s.focused - s.render,
  };
}
