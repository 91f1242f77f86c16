/** `geo version`: the same line as `geo --version` (gh has both). */
import { type Register, OFFLINE } from '../types.js';

export const register: Register = (program, act) => {
  program
    .command('version')
    .description('print the version (same as --version)')
    .addHelpText('after', '\nExamples:\n  $ geo version')
    .action(act(async () => async (ctx) => void ctx.io.stdout.write(`${ctx.version}\n`), OFFLINE));
};
