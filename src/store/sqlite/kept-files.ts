/** The local file's kept files (schema.ts migration 7; store/kept-rows.ts says what they are). */
import { createHash } from 'node:crypto';
import type { KeptFile } from '../kept-rows.js';
import type { Sql } from './sqlite.js';

export function keepFile(sql: Sql, bytes: Uint8Array, mediaType: string, at: string): { sha256: string; size: number } {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  sql.run('INSERT INTO kept_files (sha256, size, media_type, kept_at, bytes) VALUES (?, ?, ?, ?, ?) ON CONFLICT(sha256) DO NOTHING', sha256, bytes.length, mediaType, at, Buffer.from(bytes));
  return { sha256, size: bytes.length };
}

export function keptFile(sql: Sql, sha256: string): KeptFile | undefined {
  const row = sql.one<Omit<KeptFile, 'bytes'> & { bytes: ArrayBuffer | Uint8Array }>('SELECT sha256, size, media_type, kept_at, bytes FROM kept_files WHERE sha256 = ?', sha256);
  // libsql gives a BLOB as an ArrayBuffer: the bytes are handed on as the Buffer KeptFile promises.
  return row && { ...row, bytes: Buffer.from(new Uint8Array(row.bytes)) };
}
