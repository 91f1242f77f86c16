/**
 * A file's C2PA credentials in one line, as `geo inspect` and `geo cases work` say it (the
 * sentence itself is image/c2pa-summary.ts's credentialsText, which the case report uses too).
 * The strings are the file's own: the caller escapes them (sanitizeInline) before a terminal.
 */
import { credentialsText } from '../../image/c2pa-summary.js';
import type { C2paRecord } from '../../image/embedded.js';

/** What a file's credentials say, or that it has none. */
export const c2paLine = (c: C2paRecord): string => (c.present ? `Content credentials: ${credentialsText(c)}` : 'none (no content credentials in the file)');
