/**
 * The checks that keep two ZIP readers from seeing two archives: a streaming extractor
 * walks the local headers from the start, geo (zip-read.ts) the central directory from the end.
 * So every byte must belong to one member, the directory or its end record; each local header
 * must say what the directory says; a name may appear once (up to letter case); and a member may
 * be neither a symbolic link nor a special file. Each problem is a phrase naming the member.
 */

/** Where a member lies: from its local header to the end of its data (and data descriptor). */
export interface Span {
  name: string;
  localOffset: number;
  end: number;
}

const UNIX = 3;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const q = (s: string) => JSON.stringify(s);

/** What a member's external attributes make it, when not a plain file or folder ("a symbolic link"). */
export function typeProblem(name: string, madeBy: number, external: number): string | undefined {
  const folder = name.endsWith('/');
  if (madeBy >> 8 === UNIX) {
    const type = (external >>> 16) & S_IFMT;
    if (type === S_IFLNK) return 'is a symbolic link';
    if (type === S_IFDIR && !folder) return 'is a folder under a file\'s name';
    if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) return 'is a special file (a device, FIFO or socket)';
  }
  // MS-DOS attributes: 0x10 a folder.
  if ((external & 0x10) !== 0 && !folder) return 'is a folder under a file\'s name';
  return undefined;
}

/** Why the local header says something else than the directory (what a streaming extractor would read instead), or undefined. */
export function localMismatch(head: Buffer, flags: number, m: { method: number; crc: number; compressedSize: number; size: number }, described: boolean): string | undefined {
  if (head.readUInt16LE(6) !== flags || head.readUInt16LE(8) !== m.method) return 'has its local header disagree with the central directory (flags or method): a streaming extractor would read another file';
  // With a data descriptor, the local header may leave CRC and sizes zero.
  const zero = described && head.readUInt32LE(14) === 0 && head.readUInt32LE(18) === 0 && head.readUInt32LE(22) === 0;
  if (!zero && (head.readUInt32LE(14) !== m.crc || head.readUInt32LE(18) !== m.compressedSize || head.readUInt32LE(22) !== m.size)) {
    return 'has its local header disagree with the central directory (CRC or sizes): a streaming extractor would read another file';
  }
  return undefined;
}

/** Every byte belongs to one member, the directory or its end: the gaps and overlaps, each named by the member beside it. */
export function coverage(members: readonly Span[], cdStart: number, cdEnd: number, eocdAt: number): string[] {
  const out: string[] = [];
  const spans = [...members].sort((a, b) => a.localOffset - b.localOffset);
  let cursor = 0;
  let before: Span | undefined;
  const where = (next: string) => (before ? `between member ${q(before.name)} and ${next}` : `before ${next}`);
  for (const m of spans) {
    if (m.localOffset > cursor) out.push(`refused: ${m.localOffset - cursor} bytes ${where(`member ${q(m.name)}`)} belong to no member of the central directory (a hidden local header?)`);
    else if (m.localOffset < cursor && before) out.push(`refused: member ${q(m.name)} overlaps member ${q(before.name)}`);
    cursor = Math.max(cursor, m.end);
    before = m;
  }
  if (cdStart > cursor) out.push(`refused: ${cdStart - cursor} bytes ${where('the central directory')} belong to no member of the central directory (a hidden local header?)`);
  else if (cdStart < cursor) out.push(`refused: the central directory overlaps member ${q(before!.name)}`);
  if (eocdAt > cdEnd) out.push(`refused: ${eocdAt - cdEnd} bytes between the central directory and its end record belong to no member`);
  return out;
}

/** A name twice, or twice up to letter case (one would overwrite the other when extracted on macOS or Windows). */
export function duplicates(members: readonly Span[]): string[] {
  const seen = new Map<string, string>();
  const out: string[] = [];
  for (const m of members) {
    const key = m.name.toLowerCase();
    const had = seen.get(key);
    if (had === m.name) out.push(`refused: member ${q(m.name)} appears twice`);
    else if (had !== undefined) out.push(`refused: member ${q(m.name)} differs from member ${q(had)} only in letter case`);
    else seen.set(key, m.name);
  }
  return out;
}
