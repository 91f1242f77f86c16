// geo's connection keeper for a team store (src/store/postgres/keeper.ts, bundled as
// dist/keeper.cjs): started detached by a geo command that connected to its PostgreSQL server
// directly, so that the next commands find a server backend ready. Its options, the store's URL
// with its password among them, arrive as one JSON object on stdin: never in argv, which any user
// of the machine can read. It stops by itself after GEO_STORE_KEEP without a command, or on a signal.
'use strict';

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  let options;
  try {
    options = JSON.parse(input);
  } catch {
    process.exit(2);
  }
  const { Keeper } = require('../dist/keeper.cjs');
  const keeper = new Keeper(options, { uid: process.getuid ? process.getuid() : undefined, pid: process.pid, exit: () => process.exit(0) });
  keeper.start().then(
    (listening) => {
      // Another keeper serves this store already, or the folder is not this user's: nothing to do.
      if (!listening) process.exit(0);
      for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.once(sig, () => keeper.stop());
    },
    () => process.exit(1),
  );
});
