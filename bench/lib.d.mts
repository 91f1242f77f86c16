/** Types of the helpers bench/batch.ts (TypeScript) takes from lib.mjs. */
export const ROOT: string;
/** `geo sandbox` (the built CLI) on a free loopback port, once its geocoder warm-up is over. */
export function startSandbox(args?: string[], nodeBin?: string): Promise<{ url: string; pid: number; stop: () => void }>;
export function load(): string;
