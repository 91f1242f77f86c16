/**
 * What a command may ask a person: the interface both prompters implement (prompt.ts through
 * @inquirer/prompts, prompt-plain.ts one line at a time for accessible mode), in its own module so
 * neither imports the other for it.
 */
/** One answer of a select: its value, the words shown for it, and a line said under it when it is the one pointed at. */
export interface Choice<V extends string> {
  value: V;
  name: string;
  description?: string;
}

export interface Prompter {
  input(message: string, opts?: { required?: boolean; default?: string }): Promise<string>;
  /** One of a few answers; `def` the one pointed at first (the first when absent). */
  select<V extends string>(message: string, choices: ReadonlyArray<Choice<V>>, def?: V): Promise<V>;
  password(message: string): Promise<string>;
  confirm(message: string, def?: boolean): Promise<boolean>;
}
