/** Loads the SDK bundle once, on first use. */
export type Sdk = typeof import('./sdk');

let loaded: Sdk | undefined;

export async function loadSdk(): Promise<Sdk> {
  // A plain require: the extension host loads CommonJS reliably; the build maps './sdk' to dist/mcp-sdk.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./sdk') as Sdk;
  return loaded;
}

/** ext-tasks' values (see sdk.ts `loadTasks`). */
export type TasksLib = Awaited<ReturnType<Sdk['loadTasks']>>;

let tasks: Promise<TasksLib> | undefined;

export function loadTasksLib(sdk: Sdk): Promise<TasksLib> {
  tasks ??= sdk.loadTasks();
  return tasks;
}
