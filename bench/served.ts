/** The server the spans bench serves to VS Code's agent (a user-settings server: served by default) and calls through VS Code's tool API; short, as VS Code cuts a tool's server name to a few letters. */
export const SERVED_FOR_SPANS = 'spans';
