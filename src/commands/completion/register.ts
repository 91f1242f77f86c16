/** `geo completion <bash|zsh|fish>`: prints a completion script for the shell. */
import type { Register } from '../../cli.js';

export const register: Register = (program, act) => {
  program
    .command('completion <shell>')
    .description('print a shell completion script (bash, zsh or fish)')
    .addHelpText(
      'after',
      `
Examples:
  $ source <(geo completion bash)                                        this shell
  $ geo completion bash > ~/.local/share/bash-completion/completions/geo
  $ geo completion zsh > "\${fpath[1]}/_geo"
  $ geo completion fish > ~/.config/fish/completions/geo.fish`,
    )
    .action(act(async () => (await import('./run.js')).completion));
};
