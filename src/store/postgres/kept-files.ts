/** The team store's kept files (schema.ts migration 4; store/kept-rows.ts says what they are). */
import { sha256Hex } from '../../evidence/custody.js';
import type { Pool } from 'pg';
import type { KeptFile, KeptFilesApi } from '../kept-rows.js';

type Guard = <T>(fn: () => Promise<T>) => Promise<T>;

export class PgKeptFiles implements KeptFilesApi {
  constructor(private readonly pool: Pool, private readonly guard: Guard, private readonly now: () => number) {}

  put(bytes: Uint8Array, mediaType: string): Promise<{ sha256: string; size: number }> {
    const sha256 = sha256Hex(bytes);
    return this.guard(async () => {
      await this.pool.query('INSERT INTO kept_files (sha256, size, media_type, kept_at, bytes) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (sha256) DO NOTHING', [sha256, bytes.length, mediaType, new Date(this.now()).toISOString(), Buffer.from(bytes)]);
      return { sha256, size: bytes.length };
    });
  }

  get(sha256: string): Promise<KeptFile | undefined> {
    return this.guard(async () => (await this.pool.query<KeptFile>('SELECT sha256, size, media_type, kept_at, bytes FROM kept_files WHERE sha256 = $1', [sha256])).rows[0]);
  }
}
