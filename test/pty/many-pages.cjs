// Runs geo (the built bundle, as bin/geo.js loads it) once per argv of a JSON list, in this one
// process, on this terminal: each page between marker lines. One Node start for dozens of help
// pages, so the pseudo-terminal tests of issue 34 can cover every page at three widths on a busy
// machine. The streams, their TTY flags and widths are the process's own, as main() takes them.
'use strict';
const { join } = require('node:path');
const { loadCli } = require('../../bin/load-cli.js');

const lists = JSON.parse(process.argv[2]);
const cli = loadCli(join(__dirname, '../../dist/cli.js'), [], { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' });
const io = {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  stdinIsTTY: Boolean(process.stdin.isTTY),
  stdoutIsTTY: Boolean(process.stdout.isTTY),
  stderrIsTTY: Boolean(process.stderr.isTTY),
  colorOut: false,
  colorErr: false,
  columns: process.stdout.columns || 100,
  errColumns: process.stderr.columns || 100,
};
(async () => {
  for (const [n, argv] of lists.entries()) {
    process.stdout.write(`@@page ${n}@@\n`);
    const code = await cli.main(argv, { io, env: process.env, signal: new AbortController().signal });
    process.stdout.write(`@@exit ${n} ${code}@@\n`);
  }
})();
