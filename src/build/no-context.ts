/**
 * What dist/cli-root.js (build.ts 2c) has for src/context.ts: that bundle lists the nouns and runs
 * none (cli.ts handles() hands every command to dist/cli.js before anything runs), so the command
 * runtime behind context.ts (client, store, sandbox: 0.7 MB) is left out of it.
 */
export function createContext(): never {
  throw new Error('the root help bundle runs no command: bin/load-cli.js should have loaded dist/cli.js');
}
