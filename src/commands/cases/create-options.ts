/** What `geo cases create` is given (flags, or answers to ask.ts's questions); run.ts creates from it. */
export interface CreateOptions {
  name?: string;
  description?: string;
  team?: string;
  /** --local: recorded on this machine only; nothing is sent, no key is needed. */
  local?: boolean;
}

/** A case needs no key when kept on this machine: that, not the sandbox, is the way on without one. */
export const NO_KEY_HINT = '`geo cases create --local` keeps the case on this machine only, with no key; to create it on the service too, set GEO_API_KEY or run `geo keys add`';
