/**
 * What a command may ask a person: the interface both prompters implement (prompt.ts through
 * @inquirer/prompts, prompt-plain.ts one line at a time for accessible mode), in its own module so
 * neither imports the other for it.
 */
export interface Prompter {
  input(message: string, opts?: { required?: boolean; default?: string }): Promise<string>;
  password(message: string): Promise<string>;
  confirm(message: string, def?: boolean): Promise<boolean>;
}
