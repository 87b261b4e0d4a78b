/**
 * An agent's session page as its panel serves it: its HTML, in the page every panel of ours
 * serves (webview/page-html.ts: the same policy as the form page's, nothing but the page's
 * own inlined script and styles). Free of `vscode`, so the page can be tested in headless
 * Chromium as served.
 */
import { inlinable, pageDocument } from '../webview/page-html';

export interface SessionPageParts {
  readonly cspSource: string;
  readonly nonce: string;
  /** dist/webview/session.js */
  readonly script: string;
  /** dist/webview/session.css */
  readonly styles: string;
}

export function sessionPageHtml(parts: SessionPageParts): string {
  const { cspSource, nonce } = parts;
  return pageDocument({
    cspSource,
    nonce,
    styles: parts.styles,
    title: 'Agent Session',
    body: `<header>
<h1 id="title"></h1>
<div id="subtitle"></div>
<div id="servers"></div>
<div id="options"></div>
<div id="mode-warning" role="status" hidden></div>
<button id="close-session" type="button" class="secondary" title="End this session: the agent is told, and what it held is let go of">Close Session</button>
</header>
<main>
<div id="transcript" role="log" aria-label="Conversation" aria-live="polite"></div>
</main>
<footer>
<div id="state" role="status"></div>
<div class="composer">
<textarea id="prompt" rows="3" aria-label="Message to the agent" placeholder="Ask the agent (Enter sends, Shift+Enter for a new line)"></textarea>
<button id="send" type="button">Send</button>
<button id="stop" type="button" class="secondary" hidden>Stop</button>
</div>
</footer>
<script nonce="${nonce}">${inlinable(parts.script, 'script')}</script>`,
  });
}
