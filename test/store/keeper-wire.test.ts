/**
 * The keeper's view of the wire (src/store/postgres/keeper-wire.ts): where each message begins in
 * a stream cut into arbitrary chunks, the Terminate it keeps from the server found at its offset
 * (negative when its header began in an earlier chunk).
 */
import { describe, expect, it } from 'vitest';
import { Framer, message, query } from '../../src/store/postgres/keeper-wire.js';

const stream = Buffer.concat([query('SELECT 1'), message('P', Buffer.alloc(300, 7)), message('S', Buffer.alloc(0)), message('X', Buffer.alloc(0))]);

function typesIn(chunks: Buffer[]): Array<[string, number, number]> {
  const seen: Array<[string, number, number]> = [];
  let chunkNo = 0;
  const f = new Framer((type, offset) => seen.push([String.fromCharCode(type), chunkNo, offset]));
  for (const c of chunks) {
    f.push(c);
    chunkNo++;
  }
  return seen;
}

describe('the keeper\'s framing of PostgreSQL messages', () => {
  it('one chunk: every message\'s type at its own offset', () => {
    expect(typesIn([stream])).toEqual([['Q', 0, 0], ['P', 0, 14], ['S', 0, 319], ['X', 0, 324]]);
  });

  it('cut at every byte boundary: the same types in order, and Terminate\'s offset negative exactly when its header was split', () => {
    for (let cut = 1; cut < stream.length; cut++) {
      const seen = typesIn([stream.subarray(0, cut), stream.subarray(cut)]);
      expect(seen.map(([t]) => t)).toEqual(['Q', 'P', 'S', 'X']);
      // Terminate begins at byte 324 and ends the stream: always seen in the second chunk.
      expect(seen[3]!.slice(1)).toEqual([1, 324 - cut]);
    }
  });

  it('one byte at a time: the same four messages', () => {
    expect(typesIn([...stream].map((b) => Buffer.from([b]))).map(([t]) => t)).toEqual(['Q', 'P', 'S', 'X']);
  });
});
