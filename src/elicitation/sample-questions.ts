/**
 * The sample a person can try with no server (the walkthrough's "Try a Sample Question"): a
 * confirm, a form and a link, asked through the broker and the same prompts as a server's
 * questions, headed "Sample". Nothing is sent anywhere: the answers are shown back as the
 * result a server would have received. The link is example.com, opened only if the person
 * clicks Open, as every link is.
 */
import type { Broker, FormParams, UrlParams } from './broker';
import type { ElicitResult } from './model';
import type { RequestSource } from './request';

/** Who asks: the sample, not a server (the person started it, so it never offers to mute). */
export const SAMPLE_SOURCE: RequestSource = { server: 'Sample', personStarted: true };

export interface SampleQuestion {
  /** What the question shows off, in the summary. */
  readonly kind: 'confirm' | 'form' | 'link';
  readonly params: FormParams | UrlParams;
}

export const SAMPLE_QUESTIONS: readonly SampleQuestion[] = [
  {
    kind: 'confirm',
    params: {
      message: 'This is how a server asks a yes or no question. Nothing is sent anywhere: accept or decline to see the next kind of question.',
      requestedSchema: { type: 'object', properties: {} },
    },
  },
  {
    kind: 'form',
    params: {
      message: 'A server asking for several values gets a form like this one, checked as you type. Submit it as it is, or change anything first.',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', title: 'Table for', description: 'The name the booking is under', minLength: 1, maxLength: 40, default: 'Ada' },
          guests: { type: 'integer', title: 'Guests', minimum: 1, maximum: 12, default: 2 },
          date: { type: 'string', title: 'Date', format: 'date', default: '2026-12-24' },
          seating: { type: 'string', title: 'Seating', oneOf: [{ const: 'inside', title: 'Inside' }, { const: 'terrace', title: 'On the terrace' }], default: 'inside' },
          reminder: { type: 'boolean', title: 'Send me a reminder', default: true },
        },
        required: ['name', 'guests', 'date'],
      },
    },
  },
  {
    kind: 'link',
    params: {
      mode: 'url',
      message: 'A server may ask you to open a page (to sign in, or to review something). You see the whole link and its site first; it opens only if you click Open.',
      url: 'https://example.com/',
    },
  },
];

export interface SampleAnswer {
  readonly kind: SampleQuestion['kind'];
  readonly result: ElicitResult;
}

/**
 * Asks the sample's questions in turn through the broker, as a server's are asked; a question
 * dismissed (Escape: the person wants out) ends the sample there.
 */
export async function askSample(broker: Pick<Broker, 'elicit'>, options: { readonly signal: AbortSignal; readonly applyDefaults: boolean }): Promise<SampleAnswer[]> {
  const answered: SampleAnswer[] = [];
  for (const { kind, params } of SAMPLE_QUESTIONS) {
    const result = await broker.elicit(params, { source: SAMPLE_SOURCE, signal: options.signal, applyDefaults: options.applyDefaults });
    answered.push({ kind, result });
    if (result.action === 'cancel') break;
  }
  return answered;
}

/** What the sample's answers would have told a server, one part per question asked. */
export function sampleSummary(answered: readonly SampleAnswer[]): string {
  const lines = answered.map(({ kind, result }) => {
    const content = result.action === 'accept' && result.content && Object.keys(result.content).length > 0 ? ` with ${JSON.stringify(result.content)}` : '';
    return `${kind}: ${result.action}${content}`;
  });
  return `Nothing was sent anywhere. A server would have received: ${lines.join('; ')}.`;
}
