/**
 * Honest, deterministic results (DESIGN.md "Results are honest"): an image of the --truth file is
 * answered by the model of known skill (known.ts); else EXIF GPS places the image there, named by
 * the offline geocoder (only when the client sent it: geo removes metadata unless --keep-metadata);
 * anything else gets a synthetic answer chosen by the image's sha256, with reasoning starting
 * `[sandbox]` and a low confidence. Depth decides the fields exactly as the
 * spec's presence column says (thinking/visual_clues from depth 2, forensic/calibration at 3).
 */
import { createHash } from 'node:crypto';
import { type Depth, type GeolocateRequest, type GeolocateResponse, LIMITS, MODEL } from '../api/schemas.js';
import { destination, haversineKm } from '../places/distance.js';
import { mapUrls } from '../places/maps.js';
import { CITIES, alternatives, pickCity } from './cities.js';
import { type KnownGuess, type KnownModel, knownGuess } from './known.js';
import { type MarkedAnswer, readMarker } from './marker.js';

/** Below this the calibration says abstain (fields inside calibration: not shown; sandbox's own). */
const ABSTAIN_BELOW = 0.35;
const EXIF_CONFIDENCE = 0.9;

interface Estimate {
  lat: number;
  lng: number;
  country: string;
  city: string;
  neighborhood: string;
  address: string;
  confidence: number;
  source: 'known' | 'exif' | 'marker' | 'synthetic';
  reasoning: string;
  cues: string[];
  supports: string[];
  contradictions: string[];
  scopeConsistent?: boolean;
}

export interface AnalyzeInput {
  image: Buffer;
  req: GeolocateRequest;
  analysisId: string | null;
  /** performance.now() when the analysis started (latency included in timing_ms). */
  startedAt: number;
  known?: KnownModel;
}

/** Coordinates rounded to about 100 m, as the hosted service does by default (DESIGN.md). */
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * The city is the populated place (Paris, not Île-de-France: `geo analyses --city paris` must find
 * the Eiffel Tower photo) and the neighbourhood the nearest section ("Paris 16 Passy"): see
 * places/city-at.ts. At sea or far from any place, the nearest place within the cap stands in.
 */
async function place(lat: number, lng: number): Promise<{ country: string; city: string; neighborhood: string; region: string; address: string }> {
  const { reverseGeocode } = await import('../places/geocode.js');
  const { cityAt } = await import('../places/city-at.js');
  const g = reverseGeocode(lat, lng);
  if (!g) return { country: '', city: '', neighborhood: '', region: '', address: '' };
  const at = g.countryCode ? cityAt(lat, lng, g.countryCode) : undefined;
  const city = at?.city ?? g.place ?? '';
  const neighborhood = at ? at.neighborhood : '';
  const address = city ? `near ${[neighborhood, city, g.region, g.country].filter((s, i, all) => s && all.indexOf(s) === i).join(', ')}` : '';
  return { country: g.country, city, neighborhood, region: g.region ?? '', address };
}

/** Depth-3 alternatives for an EXIF-placed image: nearby points, not far-away cities. */
async function nearbyCandidates(e: Estimate, hash: Buffer): Promise<Array<{ lat: number; lng: number; label: string; km: number }>> {
  const out = [];
  for (let i = 0; i < 2; i++) {
    const km = 0.8 + (hash[20 + i]! / 255) * 2.5;
    const p = destination(e.lat, e.lng, km, (hash[22 + i]! / 255) * 360);
    const near = await place(p.lat, p.lng);
    const name = near.neighborhood || near.city || 'unnamed place';
    out.push({ lat: round3(p.lat), lng: round3(p.lng), label: `${name} (${km.toFixed(1)} km away)`, km });
  }
  return out;
}

async function fromExif(gps: { lat: number; lng: number }, req: GeolocateRequest): Promise<Estimate> {
  const p = await place(gps.lat, gps.lng);
  const at = `${gps.lat.toFixed(5)},${gps.lng.toFixed(5)}`;
  const e: Estimate = {
    lat: gps.lat, lng: gps.lng, country: p.country, city: p.city, neighborhood: p.neighborhood, address: p.address,
    confidence: EXIF_CONFIDENCE, source: 'exif',
    reasoning: `EXIF GPS metadata places the image at ${at}${p.country ? ` (${[p.neighborhood, p.city, p.country].filter(Boolean).join(', ')})` : ''}; the sandbox read the metadata, not the pixels.`,
    cues: ['EXIF GPS position', 'EXIF camera metadata'],
    supports: [`EXIF GPS position ${at}`], contradictions: ['metadata can be edited; pixels were not corroborated by the sandbox'],
  };
  if (req.scope) {
    // Rule 3: hard evidence outside the scope overrides it; the unscoped estimate is returned.
    const d = haversineKm(gps.lat, gps.lng, req.scope.lat, req.scope.lng);
    const radius = req.scope.radius_km ?? LIMITS.radiusKm.default;
    e.scopeConsistent = d <= radius;
    if (!e.scopeConsistent) e.contradictions.push(`EXIF GPS lies ${Math.round(d)} km from the scope centre of ${req.scope.name}, outside its ${radius} km radius`);
  }
  return e;
}

async function fromKnown(g: KnownGuess, req: GeolocateRequest, model: KnownModel): Promise<Estimate> {
  const p = await place(g.lat, g.lng);
  const e: Estimate = {
    lat: g.lat, lng: g.lng, country: p.country, city: p.city, neighborhood: p.neighborhood, address: p.address,
    confidence: g.confidence, source: 'known',
    reasoning: `[sandbox] Known-skill model: the pixels match "${g.truth.name}" of the truth file, so the answer is its true position moved by a seeded error (scale ${model.errorKm} km); the confidence tracks that error. Nothing in the pixels was analysed.`,
    cues: ['[sandbox] pixels matched the truth file'], supports: ['pixels matched the truth file (sandbox model)'], contradictions: ['a seeded error was added on purpose'],
  };
  if (req.scope) {
    const radius = req.scope.radius_km ?? LIMITS.radiusKm.default;
    e.scopeConsistent = haversineKm(g.lat, g.lng, req.scope.lat, req.scope.lng) <= radius;
  }
  return e;
}

/** A frame of a fixture clip (marker.ts): its scene's place, moved by its variant. */
async function fromMarker(m: MarkedAnswer, req: GeolocateRequest): Promise<Estimate> {
  const p = await place(m.lat, m.lng);
  const e: Estimate = {
    lat: m.lat, lng: m.lng, country: p.country, city: p.city, neighborhood: p.neighborhood, address: p.address,
    confidence: m.confidence, source: 'marker',
    reasoning: `[sandbox] Scene marker: the pixels carry scene ${m.code} (${m.scene.name}), variant ${m.variant}, so the answer is that place moved as the variant says. Nothing else in the pixels was analysed.`,
    cues: [`[sandbox] scene marker ${m.code}.${m.variant}`], supports: ['scene marker in the pixels (sandbox fixture clip)'], contradictions: [`the variant moved the answer on purpose; ${m.scene.decoy.name} is the decoy candidate`],
  };
  if (req.scope) {
    const radius = req.scope.radius_km ?? LIMITS.radiusKm.default;
    e.scopeConsistent = haversineKm(m.lat, m.lng, req.scope.lat, req.scope.lng) <= radius;
  }
  return e;
}

async function synthetic(hash: Buffer, req: GeolocateRequest): Promise<Estimate> {
  const pick = pickCity(hash);
  const confidence = Math.round((0.2 + (hash[5]! / 255) * 0.3) * 100) / 100;
  const e: Estimate = {
    lat: pick.lat, lng: pick.lng, country: pick.city.country, city: pick.city.city, neighborhood: pick.city.neighborhood,
    address: pick.city.address, confidence, source: 'synthetic',
    reasoning: `[sandbox] Synthetic result: no EXIF GPS, so the sandbox picked ${pick.city.city} from its built-in list using the image's sha256. Nothing in the pixels was analysed.`,
    cues: [...pick.city.cues], supports: pick.city.cues.slice(0, 2).map((c) => `${c} (synthetic)`), contradictions: ['no corroborating metadata'],
  };
  if (req.scope) {
    // The scope narrows where the model looks, never raises confidence (rule 3): same confidence, placed inside the circle.
    const radius = req.scope.radius_km ?? LIMITS.radiusKm.default;
    const km = (hash[6]! / 255) * radius * 0.5;
    const bearing = (hash[7]! / 255) * 360;
    const { lat, lng } = destination(req.scope.lat, req.scope.lng, km, bearing);
    const p = await place(lat, lng);
    Object.assign(e, { lat, lng, city: req.scope.name, country: p.country, neighborhood: p.neighborhood, address: p.address, scopeConsistent: true });
    e.reasoning = `[sandbox] Synthetic result inside the scope ${req.scope.name}: no EXIF GPS, position chosen from the image's sha256. Nothing in the pixels was analysed.`;
  }
  return e;
}

export async function estimate(image: Buffer, req: GeolocateRequest, known?: KnownModel): Promise<{ e: Estimate; hash: Buffer; marker?: MarkedAnswer }> {
  const hash = createHash('sha256').update(image).digest();
  const guess = known ? await knownGuess(known, image, (req.depth ?? 1) as Depth) : undefined;
  if (guess && known) return { e: await fromKnown(guess, req, known), hash };
  const { readExifGps } = await import('../image/exif.js');
  const gps = await readExifGps(image).catch(() => undefined);
  if (gps) return { e: await fromExif(gps, req), hash };
  const marker = await readMarker(image);
  return marker ? { e: await fromMarker(marker, req), hash, marker } : { e: await synthetic(hash, req), hash };
}

/** A marked frame's depth-3 candidates: 5 km north of the answer, and the scene's decoy city. */
function markerCandidates(e: Estimate, m: MarkedAnswer): Array<{ lat: number; lng: number; label: string; cue: string; why: string }> {
  const north = destination(e.lat, e.lng, 5, 0);
  return [
    { lat: round3(north.lat), lng: round3(north.lng), label: `5 km north of the answer (${m.scene.name})`, cue: 'the same scene, framed differently', why: '5 km from the leading estimate' },
    { lat: m.scene.decoy.lat, lng: m.scene.decoy.lng, label: m.scene.decoy.name, cue: 'a similar-looking city (decoy)', why: 'weaker match than the leading candidate' },
  ];
}

export async function analyze(input: AnalyzeInput): Promise<GeolocateResponse> {
  const { req } = input;
  const depth = (req.depth ?? 1) as Depth;
  const { e, hash, marker } = await estimate(input.image, req, input.known);
  const lat = round3(e.lat);
  const lng = round3(e.lng);
  // location carries "also ready-made map links" (api-spec.md; field names not shown): the sandbox's own names.
  const out: Record<string, unknown> = {
    success: true,
    analysis_id: input.analysisId,
    location: { latitude: lat, longitude: lng, country: e.country, city: e.city, neighborhood: e.neighborhood, address: e.address, maps: mapUrls(String(lat), String(lng)) },
    confidence: e.confidence,
    reasoning: e.reasoning,
    model: MODEL,
    depth,
  };
  if (depth >= 2) {
    const first = { known: '[sandbox] Pixels matched the truth file; seeded error added', exif: 'Read EXIF GPS', marker: '[sandbox] Read the scene marker in the pixels', synthetic: '[sandbox] No EXIF GPS; synthetic pick by image hash' }[e.source];
    out.thinking = [`1. ${first}.`, ...e.cues.map((c, i) => `${i + 2}. Cue: ${c}.`)].join('\n');
    // Some clues carry image coordinates (fractions of width/height), some do not: clients must handle both.
    out.visual_clues = e.cues.map((label, i) => (i % 2 === 0 ? { label, detail: '', bbox: { x: (hash[8 + i]! % 60) / 100, y: (hash[12 + i]! % 60) / 100, width: 0.2, height: 0.15 } } : { label, detail: '' }));
  }
  if (req.effort !== undefined) out.effort = req.effort;
  if (req.batch_id !== undefined) out.batch_id = req.batch_id;
  if (e.scopeConsistent !== undefined) out.scope_consistent = e.scopeConsistent;
  out.timing_ms = Math.max(0, Math.round(performance.now() - input.startedAt));
  if (depth === 3) {
    const alts = marker
      ? markerCandidates(e, marker)
      : e.source !== 'synthetic'
        ? (await nearbyCandidates(e, hash)).map((c) => ({ ...c, cue: 'similar street furniture nearby', why: `${c.km.toFixed(1)} km from the ${e.source === 'exif' ? 'EXIF position' : 'leading estimate'}` }))
        : alternatives(hash, Math.max(0, CITIES.findIndex((c) => c.city === e.city)), 2).map((c) => ({ lat: c.lat, lng: c.lng, label: `${c.city}, ${c.country}`, cue: `${c.cues[0]} (synthetic)`, why: 'weaker match than the leading candidate' }));
    out.forensic = {
      precision_tier: e.source === 'exif' ? 'site_level' : 'city_level',
      verification_status: e.source === 'exif' ? 'partially_verified' : 'unverified',
      supports: e.supports,
      contradictions: e.contradictions,
      candidates: alts.map((c, i) => ({
        lat: c.lat, lng: c.lng, label: c.label,
        confidence: Math.round(e.confidence * 100 * (0.5 - i * 0.2)),
        supports: [c.cue], contradictions: [c.why],
      })),
    };
    out.calibration = {
      abstain_below: ABSTAIN_BELOW,
      abstain: e.confidence < ABSTAIN_BELOW,
      publish_policy: e.confidence < ABSTAIN_BELOW ? 'abstain: do not publish this location' : 'publish with the stated confidence and caveats',
      source: e.source,
    };
  }
  return out as GeolocateResponse;
}
