/** Loads the SDK bundle once, on first use. */
export type Sdk = typeof import('./sdk');

let loaded: Sdk | undefined;

export async function loadSdk(): Promise<Sdk> {
  return requireSdk();
}

/** The same, synchronously (the gateway builds its SDK servers inside the SDK's own callbacks). */
export function requireSdk(): Sdk {
  // A plain require: the extension host loads CommonJS reliably; the build maps './sdk' to dist/mcp-sdk.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./sdk') as Sdk;
  return loaded;
}

/** The SDK's server half, for the gateway (see server-sdk.ts). */
export type ServerSdk = ReturnType<Sdk['loadServer']>;

let server: ServerSdk | undefined;

/**
 * The server half, run on its first use (the gateway's first request). dist/gateway.js bundles
 * this loader too and reaches the same dist/mcp-sdk.js, which Node loads once for the gateway
 * and the servers' connections.
 */
export function serverSdk(): ServerSdk {
  server ??= requireSdk().loadServer();
  return server;
}

/** ext-tasks' values (see sdk.ts `loadTasks`). */
export type TasksLib = Awaited<ReturnType<Sdk['loadTasks']>>;

let tasks: Promise<TasksLib> | undefined;

export function loadTasksLib(sdk: Sdk): Promise<TasksLib> {
  tasks ??= sdk.loadTasks();
  return tasks;
}
