/** What `geo cases create` is given (flags, or answers to ask.ts's questions); run.ts creates from it. */
export interface CreateOptions {
  name?: string;
  description?: string;
  team?: string;
  /** --local: recorded on this machine only; nothing is sent, no key is needed. */
  local?: boolean;
}
