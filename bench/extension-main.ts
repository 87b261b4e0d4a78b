/**
 * The benchmark build's extension proper (scripts/build.mjs bundles it as dist/extension-main.js
 * when it builds with --benchmark, in place of src/extension-main.ts): the extension's own,
 * with the benchmark's hooks put in through its port. The shipped build never reads this file.
 */
import type * as vscode from 'vscode';
import type { ElicitationHostApi } from '../src/api';
import { activateMain as activateExtension } from '../src/extension-main';
import type { StandIns } from '../src/stand-ins';
import { installBenchmarkHooks } from './extension-hooks';

/** As src/extension-main.ts's, which src/extension.ts requires. The hooks are installed first, without an await, so activation keeps its shape. */
export function activateMain(context: vscode.ExtensionContext, standIns: StandIns): Promise<ElicitationHostApi> {
  return activateExtension(context, standIns, installBenchmarkHooks(context));
}
