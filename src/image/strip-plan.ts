/**
 * The removal plan being built (strip.ts): byte ranges of the original to keep, bytes geo writes
 * (the minimal EXIF), and what was dropped. Shared by the JPEG and PNG planners.
 */
/** A range [from, to) of the original, or bytes geo wrote (the minimal EXIF). */
export type Piece = { from: number; to: number } | Buffer;

export interface Removed {
  /** What it was, for people: "EXIF (GPS, camera, capture details)", "XMP", "comment". */
  what: string;
  bytes: number;
}

export interface StripPlan {
  pieces: Piece[];
  /** Size of the bytes to send. */
  size: number;
  /** Empty when the file had nothing to remove (then pieces is the whole file). */
  removed: Removed[];
  /** EXIF Orientation (1-8) carried over as a minimal EXIF, when the original had one. */
  orientation?: number;
}

/** Random access to the original: a Buffer held in memory, or a file read in windows. */
export interface ByteSource {
  size: number;
  read(pos: number, len: number): Promise<Buffer>;
}

export const TRAILER = 'data after the end of the image';

export class Plan {
  pieces: Piece[] = [];
  private removed = new Map<string, number>();
  private exifHolds = new Set<string>();
  /** The first Orientation an EXIF block held. */
  orientation: number | undefined;

  keep(from: number, to: number): void {
    if (to <= from) return;
    const last = this.pieces[this.pieces.length - 1];
    if (last && !Buffer.isBuffer(last) && last.to === from) last.to = to;
    else this.pieces.push({ from, to });
  }

  drop(what: string, bytes: number): void {
    if (bytes > 0) this.removed.set(what, (this.removed.get(what) ?? 0) + bytes);
  }

  /** A dropped EXIF block: what it held goes into its label, its orientation is carried over. */
  dropExif(bytes: number, info: { orientation?: number; holds: string[] }): void {
    this.drop(EXIF, bytes);
    this.orientation ??= info.orientation;
    for (const h of info.holds) this.exifHolds.add(h);
  }

  /** Puts `bytes` at original offset `at` (which must fall inside or at the end of a kept range). */
  insert(at: number, bytes: Buffer): void {
    const out: Piece[] = [];
    let placed = false;
    for (const piece of this.pieces) {
      if (!placed && !Buffer.isBuffer(piece) && piece.from <= at && at <= piece.to) {
        if (at > piece.from) out.push({ from: piece.from, to: at });
        out.push(bytes);
        if (piece.to > at) out.push({ from: at, to: piece.to });
        placed = true;
      } else out.push(piece);
    }
    if (!placed) out.splice(1, 0, bytes);
    this.pieces = out;
  }

  done(): StripPlan {
    const size = this.pieces.reduce((n, p) => n + (Buffer.isBuffer(p) ? p.length : p.to - p.from), 0);
    const label = (what: string) => (what === EXIF && this.exifHolds.size ? `EXIF (${[...this.exifHolds].join(', ')})` : what);
    const removed = [...this.removed].map(([what, bytes]) => ({ what: label(what), bytes }));
    return { pieces: this.pieces, size, removed, ...(this.orientation !== undefined ? { orientation: this.orientation } : {}) };
  }
}

const EXIF = 'EXIF';
