/**
 * Files kept by their sha256 in the local store (kept_files): read back as the Buffer the store's
 * interface promises, byte for byte, whatever the database driver hands a BLOB back as.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/evidence/custody.js';
import { asStoreApi } from '../../src/store/index.js';
import { openStore } from '../helpers/store.js';

describe('kept files (local store)', () => {
  it('are read back as a Buffer, byte for byte, under their sha256', async () => {
    const store = openStore(mkdtempSync(join(tmpdir(), 'geo-kept-')));
    try {
      const api = asStoreApi(store, Date.now);
      const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
      const put = await api.kept.put(bytes, 'image/png');
      expect(put).toEqual({ sha256: sha256Hex(bytes), size: 8 });
      const got = await api.kept.get(put.sha256);
      expect(Buffer.isBuffer(got!.bytes)).toBe(true);
      expect(got!.bytes.equals(bytes)).toBe(true);
      expect(got!.media_type).toBe('image/png');
      expect(await api.kept.get('0'.repeat(64))).toBeUndefined();
    } finally {
      store.close();
    }
  });
});
