/**
 * The small built-in world the sandbox's synthetic results are drawn from. An image without EXIF
 * GPS is "located" at one of these, chosen by the sha256 of its bytes: the same image always gives
 * the same answer, and nothing pretends the pixels were looked at (reasoning starts `[sandbox]`).
 */

export interface City {
  city: string;
  country: string;
  neighborhood: string;
  address: string;
  lat: number;
  lng: number;
  /** Cues a real model might cite for this place, used as visual_clues labels. */
  cues: readonly string[];
}

export const CITIES: readonly City[] = [
  { city: 'Lisbon', country: 'Portugal', neighborhood: 'Alfama', address: 'Rua de São Miguel, Lisbon', lat: 38.7115, lng: -9.1300, cues: ['azulejo tiles', 'Latin-script signage (Portuguese)', 'right-hand traffic', 'tram rails'] },
  { city: 'Reykjavik', country: 'Iceland', neighborhood: 'Miðborg', address: 'Laugavegur, Reykjavik', lat: 64.1455, lng: -21.9290, cues: ['corrugated-iron facades', 'Icelandic diacritics on signs', 'low sun angle', 'volcanic gravel'] },
  { city: 'Nairobi', country: 'Kenya', neighborhood: 'Westlands', address: 'Waiyaki Way, Nairobi', lat: -1.2676, lng: 36.8108, cues: ['left-hand traffic', 'yellow Kenyan rear plates', 'matatu minibus', 'red laterite soil'] },
  { city: 'Buenos Aires', country: 'Argentina', neighborhood: 'San Telmo', address: 'Defensa, Buenos Aires', lat: -34.6212, lng: -58.3731, cues: ['Spanish signage', 'cobblestone street', 'filete porteño lettering', 'right-hand traffic'] },
  { city: 'Hanoi', country: 'Vietnam', neighborhood: 'Hoàn Kiếm', address: 'Hàng Bạc, Hanoi', lat: 21.0340, lng: 105.8520, cues: ['Vietnamese diacritics', 'tube houses', 'dense motorbike traffic', 'overhead cable bundles'] },
  { city: 'Montreal', country: 'Canada', neighborhood: 'Plateau-Mont-Royal', address: 'Rue Saint-Denis, Montreal', lat: 45.5230, lng: -73.5830, cues: ['French signage', 'exterior spiral staircases', 'right-hand traffic', 'snow poles'] },
  { city: 'Istanbul', country: 'Türkiye', neighborhood: 'Beyoğlu', address: 'İstiklal Caddesi, Istanbul', lat: 41.0340, lng: 28.9770, cues: ['Turkish dotted İ on signs', 'historic tram', 'minaret on skyline', 'right-hand traffic'] },
  { city: 'Melbourne', country: 'Australia', neighborhood: 'Fitzroy', address: 'Brunswick Street, Melbourne', lat: -37.7990, lng: 144.9780, cues: ['left-hand traffic', 'hook-turn signs', 'Victorian terraces', 'eucalyptus street trees'] },
  { city: 'Marrakesh', country: 'Morocco', neighborhood: 'Medina', address: 'Derb Dabachi, Marrakesh', lat: 31.6300, lng: -7.9890, cues: ['Arabic and French bilingual signs', 'ochre pisé walls', 'carved cedar doors', 'palm trees'] },
  { city: 'Kraków', country: 'Poland', neighborhood: 'Kazimierz', address: 'Szeroka, Kraków', lat: 50.0510, lng: 19.9460, cues: ['Polish diacritics', 'tenement facades', 'right-hand traffic', 'tram catenary'] },
  { city: 'Seoul', country: 'South Korea', neighborhood: 'Jongno-gu', address: 'Insadong-gil, Seoul', lat: 37.5740, lng: 126.9850, cues: ['Hangul signage', 'right-hand traffic', 'hanok roof tiles', 'bollards with yellow bands'] },
  { city: 'Mexico City', country: 'Mexico', neighborhood: 'Roma Norte', address: 'Calle Orizaba, Mexico City', lat: 19.4170, lng: -99.1600, cues: ['Spanish signage', 'jacaranda trees', 'pink-and-white taxis', 'right-hand traffic'] },
];

/** A deterministic pick and a small deterministic jitter (< ~2 km) from the image's sha256. */
export function pickCity(hash: Buffer): { city: City; lat: number; lng: number; index: number } {
  const index = hash.readUInt16BE(0) % CITIES.length;
  const city = CITIES[index]!;
  const jitter = (b: number) => ((b - 127.5) / 127.5) * 0.015;
  return { city, index, lat: city.lat + jitter(hash[2]!), lng: city.lng + jitter(hash[3]!) };
}

/** Cities other than `index`, in an order fixed by the hash: the rejected alternatives of depth 3. */
export function alternatives(hash: Buffer, index: number, n: number): City[] {
  const out: City[] = [];
  const start = 1 + (hash[4]! % (CITIES.length - 1));
  for (let k = 0; out.length < n && k < CITIES.length; k++) {
    const i = (index + start + k) % CITIES.length;
    if (i !== index) out.push(CITIES[i]!);
  }
  return out;
}

export function slug(s: string): string {
  return s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
