/**
 * What the extension needs of src/ahp at run time beyond the address rules (endpoint.ts, which
 * the Connect command checks with as you type): the inbox, with the client and the `ws`
 * package behind it, in one module. The build makes it a separate file (dist/ahp.js), loaded
 * when the first agent host connects: a window without agent hosts never loads it.
 */
export { AgentHostInbox, type InboxEvents, type InboxItem, type InboxOptions } from './inbox';
