/**
 * Injected faults (DESIGN.md "Sandbox surface"): per request with the `Sandbox-Fault` header, or
 * drawn for geolocate requests from `--faults kind:rate,...` with a seeded PRNG so a run is
 * reproducible with the same `--seed` and the same request order.
 */

export type FaultKind = '429' | '500' | '502' | '503' | '504' | 'reset-before' | 'reset-after' | 'truncate' | 'stall';
export interface Fault {
  kind: FaultKind;
  /** stall only. */
  ms?: number;
}

export const FAULT_KINDS: readonly string[] = ['429', '500', '502', '503', '504', 'reset-before', 'reset-after', 'truncate', 'stall:<ms>'];
const SIMPLE = new Set(['429', '500', '502', '503', '504', 'reset-before', 'reset-after', 'truncate']);

/** Parses one kind; undefined when it is not one. */
export function parseFault(s: string): Fault | undefined {
  const v = s.trim().toLowerCase();
  if (SIMPLE.has(v)) return { kind: v as FaultKind };
  const m = /^stall:(\d{1,7})$/.exec(v);
  return m ? { kind: 'stall', ms: Number(m[1]) } : undefined;
}

export interface FaultRate {
  fault: Fault;
  rate: number;
}

/** "500:0.1,reset-after:0.05" (stall takes its ms first: "stall:2000:0.1"). Throws with a readable message. */
export function parseFaultList(list: string): FaultRate[] {
  const out: FaultRate[] = [];
  for (const raw of list.split(',').map((x) => x.trim()).filter(Boolean)) {
    const i = raw.lastIndexOf(':');
    const fault = i > 0 ? parseFault(raw.slice(0, i)) : undefined;
    const rate = i > 0 ? Number(raw.slice(i + 1)) : NaN;
    if (!fault || !(rate >= 0 && rate <= 1)) {
      throw new Error(`bad fault "${raw}": expected kind:rate with kind one of ${FAULT_KINDS.join(', ')} and rate 0-1`);
    }
    out.push({ fault, rate });
  }
  const total = out.reduce((s, f) => s + f.rate, 0);
  if (total > 1) throw new Error(`fault rates add up to ${total}, more than 1`);
  return out;
}

/** mulberry32: tiny, fast, and the same sequence for the same seed on every platform. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One draw per geolocate request: the first fault whose cumulative rate exceeds the draw. */
export class FaultPlan {
  private readonly rand: () => number;
  constructor(private readonly rates: FaultRate[], seed: number) {
    this.rand = mulberry32(seed);
  }
  draw(): Fault | undefined {
    if (this.rates.length === 0) return undefined;
    const r = this.rand();
    let cum = 0;
    for (const f of this.rates) {
      cum += f.rate;
      if (r < cum) return f.fault;
    }
    return undefined;
  }
}
