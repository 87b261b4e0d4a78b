/**
 * The launcher that puts `elicitation-host` on terminals' PATH: it runs the extension host's
 * own runtime as Node on the shipped runner, whatever the paths hold, and passes every argument.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchers } from '../../src/ui/gateway/cli-on-path';

describe('elicitation-host on terminals’ PATH', () => {
  it('the POSIX launcher runs the runtime on the runner with every argument, quotes and all', () => {
    const dir = mkdtempSync(join(tmpdir(), "eh launcher's "));
    const cli = join(dir, "cli it's.js");
    writeFileSync(cli, 'console.log(JSON.stringify({ args: process.argv.slice(2), asNode: process.env.ELECTRON_RUN_AS_NODE }));\n');
    const script = join(dir, 'elicitation-host');
    writeFileSync(script, launchers(process.execPath, cli).posix);
    chmodSync(script, 0o755);
    const out = JSON.parse(execFileSync(script, ['ask', '--confirm', "Push 'main'? $HOME"], { encoding: 'utf8' })) as { args: string[]; asNode: string };
    assert.deepEqual(out, { args: ['ask', '--confirm', "Push 'main'? $HOME"], asNode: '1' });
  });

  it('the Windows launcher names the runtime and the runner, and passes the arguments', () => {
    const { windows } = launchers('C:\\Code\\Code.exe', 'C:\\ext\\dist\\cli.js');
    assert.match(windows, /set ELECTRON_RUN_AS_NODE=1\r\n"C:\\Code\\Code\.exe" "C:\\ext\\dist\\cli\.js" %\*\r\n$/);
  });
});
