/** `geo completion <bash|zsh|fish>`: prints a completion script for the shell. */
import { type Register, OFFLINE } from '../types.js';

export const register: Register = (program, act) => {
  program
    .command('completion <shell>')
    .description('print a shell completion script (bash, zsh or fish)')
    .addHelpText(
      'after',
      `
Examples:
  $ source <(geo completion bash)                                     # this shell (bash; zsh the same)
  $ mkdir -p ~/.local/share/bash-completion/completions && geo completion bash > ~/.local/share/bash-completion/completions/geo
  $ mkdir -p ~/.zfunc && geo completion zsh > ~/.zfunc/_geo           # with fpath+=(~/.zfunc) in ~/.zshrc
  $ mkdir -p ~/.config/fish/completions && geo completion fish > ~/.config/fish/completions/geo.fish

zsh needs no compinit of its own: the script starts zsh's completion system when it is off.`,
    )
    .action(act(async () => (await import('./run.js')).completion, OFFLINE));
};
