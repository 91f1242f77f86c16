/**
 * The environment variables geo reads: the ONE list, from which `geo help environment`, the
 * reference (docs/reference.md) and the man pages' ENVIRONMENT are made.
 * test/help/environment.test.ts fails when src/ or bin/ reads a GEO_ variable this list does not name.
 */
export interface EnvVar {
  name: string;
  what: string;
}

export const ENVIRONMENT: readonly EnvVar[] = [
  { name: 'GEO_API_KEY', what: 'an API key, sent only to GEO_BASE_URL (or --base-url, else the default service), never to a profile\'s origin' },
  { name: 'GEO_BASE_URL', what: 'the service\'s base URL (default https://oceanir.ai); --base-url wins' },
  { name: 'GEO_PROFILE', what: 'the key profile to use (geo keys list); --profile wins' },
  { name: 'GEO_KEYRING', what: '"required": keep keys only in the OS keyring, never in the 0600 file; "auto" (default) falls back to the file' },
  { name: 'GEO_DEBUG', what: 'any value but 0: as --debug, the HTTP log on stderr, secrets redacted' },
  { name: 'GEO_ACCESSIBLE', what: 'any value but 0 or false: no spinner, no line redrawn in place, prompts that do not redraw (screen readers)' },
  { name: 'GEO_CONFIG_DIR', what: 'the config folder: profiles and defaults (default $XDG_CONFIG_HOME/geo, ~/.config/geo)' },
  { name: 'GEO_STATE_DIR', what: 'the state folder: batch journals (default $XDG_STATE_HOME/geo, ~/.local/state/geo)' },
  { name: 'GEO_DATA_DIR', what: 'the data folder: the store geo.db, results already paid for (default $XDG_DATA_HOME/geo, ~/.local/share/geo)' },
  { name: 'GEO_STORE_URL', what: "a team's PostgreSQL store (postgres://USER@HOST/DB?sslmode=verify-full), shared by every analyst; --store URL|local overrides it (geo help store)" },
  { name: 'GEO_CACHE_DIR', what: 'the code cache (default $XDG_CACHE_HOME/geo, ~/.cache/geo); NODE_DISABLE_COMPILE_CACHE=1 turns it off' },
  { name: 'GEO_FFMPEG', what: 'the ffmpeg to use for videos and photo sets (default: ffmpeg on PATH; never downloaded)' },
  { name: 'GEO_FFPROBE', what: 'the ffprobe to use (default: beside GEO_FFMPEG, else on PATH)' },
  { name: 'NO_COLOR', what: 'any value: no colour (as --no-color; TERM=dumb too)' },
  { name: 'FORCE_COLOR', what: '0 turns colour off, any other value on, even into a pipe' },
  { name: 'CI', what: 'set (not 0 or false): never prompt, never touch the OS keyring, no spinner' },
  { name: 'BROWSER', what: 'the program geo docs --open runs (else xdg-open or open)' },
];
