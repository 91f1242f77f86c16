/** `geo docs`: where the service's HTML documentation lives; open it or save it. */
import type { Register } from '../types.js';
import { FILE_MODE_HELP } from '../../flags.js';
import { declareJson } from '../../output/json-fields.js';

export const register: Register = (program, act) => {
  declareJson('docs', { names: [], open: true });
  program
    .command('docs')
    .description('print the URL of the service\'s HTML API documentation')
    .option('--open', 'open it in the browser (BROWSER, xdg-open or open)')
    .option('--html <file>', 'download the HTML into FILE (no key needed; 0600: see --file-mode)')
    .option('--file-mode <mode>', `--html: ${FILE_MODE_HELP}`)
    .addHelpText(
      'after',
      `
Examples:
  $ geo docs                                      # print the URL
  $ geo --sandbox docs --html sandbox-docs.html   # save the sandbox's documentation

Also:
  geo docs --open                                 # open it in the browser
  geo docs --html api-docs.html                   # save the service's`,
    )
    .action(act(async () => (await import('./handlers.js')).docs));
};
