/**
 * Activation: builds the objects and registers what the manifest contributes. No logic here.
 */
import * as vscode from 'vscode';
import { InputStore } from './elicitation/store';

export interface ElicitationHostApi {
  readonly store: InputStore;
}

export function activate(context: vscode.ExtensionContext): ElicitationHostApi {
  const log = vscode.window.createOutputChannel('Elicitation Host', { log: true });
  context.subscriptions.push(log);
  const store = new InputStore();
  log.info('Elicitation Host activated');
  return { store };
}

export function deactivate(): void {}
