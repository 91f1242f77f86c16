/**
 * The environment a run reads (Ctx.env: only cli.ts touches process.env), and what it says about
 * the run. Here, at the bottom of the layers that read it: config (keyring policy, folders) and
 * output (colour, prompts, animation).
 */
export type Env = Record<string, string | undefined>;

export function isCI(env: Env): boolean {
  return env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI !== 'false';
}
