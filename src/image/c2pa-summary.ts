/**
 * The summary geo keeps of a C2PA manifest store (c2pa.ts reads it): the active manifest's title,
 * format, claim generator, signer, signing time and assertion labels, and its validation state
 * with the failing status codes (C2PA 2.1 §15, "Validation": e.g. assertion.dataHash.mismatch,
 * signingCredential.untrusted). Built from the two JSON views c2pa-rs gives of a store: Reader.json
 * (validation state and results, signature_info) and crJSON (the certificates' full subject and
 * issuer, the time-stamp authority, every assertion label). Every string is the file's own and is
 * escaped before it reaches a terminal (output/sanitize.ts); each is capped, as the file is untrusted.
 */
import type { C2paLocation } from './c2pa-find.js';

export interface C2paSigner {
  /** The signing certificate's subject and issuer, RFC 4514 style: "CN=…, O=…, C=…". */
  subject: string;
  issuer: string;
  /** What a sentence names the signer by: its common name, with its organisation when that differs. */
  name: string;
  alg?: string;
  serial?: string;
  not_before?: string;
  not_after?: string;
}

export interface C2paValidation {
  /**
   * trusted: signature and hashes hold, and the signer chains to a trust anchor geo was given;
   * valid: they hold, but no trust list vouches for the signer (signingCredential.untrusted);
   * invalid: something fails (failures name it); unchecked: not validated (reason says why).
   */
  state: 'trusted' | 'valid' | 'invalid' | 'unchecked';
  signer_trusted: boolean;
  failures: Array<{ code: string; explanation?: string }>;
  reason?: string;
}

export interface C2paManifest extends C2paLocation {
  present: true;
  /** Manifests in the store (the active one and its ingredients' history). */
  manifests?: number;
  active_manifest?: string;
  title?: string;
  format?: string;
  /** The software that made the claim, e.g. "Adobe Photoshop 26.0" or "make_test_images/0.33.1 c2pa-rs/0.33.1". */
  claim_generator?: string;
  signer?: C2paSigner;
  /** When a time-stamp authority saw the signature (RFC 3161); absent when none did. */
  signed_at?: string;
  timestamp_authority?: string;
  assertions?: string[];
  ingredients?: number;
  validation: C2paValidation;
  /** Which reader judged it (package and version). */
  reader?: string;
}

type Status = { code?: unknown; explanation?: unknown };
type Dn = Record<string, unknown>;

/** Reader.json(): the manifest store as c2pa-rs reports it. */
export interface ReaderJson {
  active_manifest?: string;
  manifests?: Record<string, {
    title?: unknown; format?: unknown; claim_generator?: unknown; claim_generator_info?: Array<{ name?: unknown; version?: unknown }>;
    assertions?: Array<{ label?: unknown }>; ingredients?: unknown[];
    signature_info?: { alg?: unknown; issuer?: unknown; common_name?: unknown; cert_serial_number?: unknown; time?: unknown };
  }>;
  validation_state?: string;
  validation_status?: Status[];
  validation_results?: { activeManifest?: { failure?: Status[] } };
}

/** Reader.crJson(): the same store in the C2PA JSON serialisation, certificates included. */
export interface CrJson {
  manifests?: Array<{
    label?: string;
    assertions?: Record<string, unknown>;
    signature?: {
      algorithm?: unknown;
      certificateInfo?: { serialNumber?: unknown; subject?: Dn; issuer?: Dn; validity?: { notBefore?: unknown; notAfter?: unknown } };
      timeStampInfo?: { timestamp?: unknown; certificateInfo?: { subject?: Dn } };
    };
  }>;
}

const MAX_TEXT = 1024;
const MAX_LIST = 100;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v.slice(0, MAX_TEXT) : typeof v === 'number' ? String(v) : undefined);

/** RFC 4514 order: the most specific name first (crJSON lists them as the certificate does, C first). */
function dn(d: Dn | undefined): string {
  return Object.entries(d ?? {}).reverse().flatMap(([k, v]) => (str(v) ? [`${k}=${str(v)}`] : [])).join(', ').slice(0, MAX_TEXT);
}

function signerOf(sig: NonNullable<CrJson['manifests']>[number]['signature'], info: NonNullable<ReaderJson['manifests']>[string]['signature_info']): C2paSigner | undefined {
  const cert = sig?.certificateInfo;
  const cn = str(cert?.subject?.CN) ?? str(info?.common_name);
  const org = str(cert?.subject?.O) ?? str(info?.issuer);
  const name = cn && org && cn !== org ? `${cn} (${org})` : cn ?? org;
  if (!name && !cert) return undefined;
  const out: C2paSigner = { subject: dn(cert?.subject) || (cn ? `CN=${cn}` : ''), issuer: dn(cert?.issuer) || (str(info?.issuer) ?? ''), name: name ?? 'unnamed signer' };
  const alg = str(sig?.algorithm) ?? str(info?.alg);
  if (alg) out.alg = alg;
  const serial = str(cert?.serialNumber) ?? str(info?.cert_serial_number);
  if (serial) out.serial = serial;
  if (str(cert?.validity?.notBefore)) out.not_before = str(cert?.validity?.notBefore)!;
  if (str(cert?.validity?.notAfter)) out.not_after = str(cert?.validity?.notAfter)!;
  return out;
}

function generator(m: NonNullable<ReaderJson['manifests']>[string]): string | undefined {
  const infos = (Array.isArray(m.claim_generator_info) ? m.claim_generator_info : []).map((i) => [str(i.name), str(i.version)].filter(Boolean).join(' ')).filter(Boolean);
  return str(m.claim_generator) ?? (infos.length ? infos.join(', ').slice(0, MAX_TEXT) : undefined);
}

function validationOf(j: ReaderJson): C2paValidation {
  const failed = j.validation_results?.activeManifest?.failure ?? j.validation_status ?? [];
  const failures = failed.slice(0, MAX_LIST).map((s) => ({ code: str(s.code) ?? 'unknown', ...(str(s.explanation) ? { explanation: str(s.explanation)! } : {}) }));
  const given = j.validation_state?.toLowerCase();
  const trustOnly = failures.every((f) => f.code === 'signingCredential.untrusted');
  const state = given === 'trusted' ? 'trusted' : given === 'valid' ? 'valid' : given === 'invalid' ? 'invalid' : trustOnly ? 'valid' : 'invalid';
  return { state, signer_trusted: state === 'trusted', failures };
}

export function summarize(at: C2paLocation, j: ReaderJson, cr: CrJson, reader: string): C2paManifest {
  const label = j.active_manifest;
  const m = label ? j.manifests?.[label] : undefined;
  const crm = cr.manifests?.find((x) => x.label === label);
  const out: C2paManifest = { present: true, ...at, manifests: Object.keys(j.manifests ?? {}).length, validation: validationOf(j), reader };
  if (!m || !label) return { ...out, validation: { ...out.validation, state: 'invalid', failures: [...out.validation.failures, { code: 'claim.missing', explanation: 'the store names no active manifest' }] } };
  out.active_manifest = label.slice(0, MAX_TEXT);
  if (str(m.title)) out.title = str(m.title)!;
  if (str(m.format)) out.format = str(m.format)!;
  const gen = generator(m);
  if (gen) out.claim_generator = gen;
  const signer = signerOf(crm?.signature, m.signature_info);
  if (signer) out.signer = signer;
  const ts = crm?.signature?.timeStampInfo;
  const when = str(ts?.timestamp) ?? str(m.signature_info?.time);
  if (when) out.signed_at = when;
  const tsa = str(ts?.certificateInfo?.subject?.CN) ?? str(ts?.certificateInfo?.subject?.O);
  if (tsa) out.timestamp_authority = tsa;
  const labels = crm?.assertions ? Object.keys(crm.assertions) : (m.assertions ?? []).flatMap((a) => (str(a.label) ? [str(a.label)!] : []));
  out.assertions = labels.slice(0, MAX_LIST).map((l) => l.slice(0, MAX_TEXT));
  if (Array.isArray(m.ingredients) && m.ingredients.length) out.ingredients = m.ingredients.length;
  return out;
}

/** "valid (signer on no trust list: signingCredential.untrusted)", "invalid (assertion.dataHash.mismatch)". */
export function validationText(m: C2paManifest): string {
  const v = m.validation;
  const codes = v.failures.map((f) => f.code).join(', ');
  if (v.state === 'trusted') return 'valid, signer trusted';
  if (v.state === 'valid') return codes ? `valid (signer on no trust list: ${codes})` : 'valid';
  if (v.state === 'invalid') return `invalid (${v.failures.filter((f) => f.code !== 'signingCredential.untrusted').map((f) => f.code).join(', ') || codes || 'no reason given'})`;
  return `not checked (${v.reason ?? 'unknown reason'})`;
}

/** The one sentence geo inspect and a case's report say: who signed, with what, when, and whether it holds. */
export function credentialsText(m: C2paManifest): string {
  const who = m.signer ? `signed by ${m.signer.name}` : 'signed by an unnamed signer';
  const what = m.claim_generator ? ` with ${m.claim_generator}` : '';
  const when = m.signed_at ? ` at ${m.signed_at}` : ' (no trusted time-stamp)';
  return m.validation.state === 'unchecked' ? `present in ${m.container}, ${validationText(m)}` : `${who}${what}${when}, ${validationText(m)}`;
}
