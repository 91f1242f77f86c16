/** The answers bench/store.mjs and bench/team.mjs store: realistic depth-3 bodies of about 5 KB, made from their index. */
export const CITIES = ['Paris', 'Tokyo', 'Sydney', 'Lisbon', 'Montreal', 'Reykjavik', 'Seoul', 'Istanbul', 'Melbourne', 'Nairobi', 'Lima', 'Oslo', 'Hanoi', 'Dakar', 'Quito', 'Perth'];
export const WORDS = 'facade cornice tram catenary signage typeface bollard kerb lamppost awning shutters balcony tile roof gutter chimney hedge cobble asphalt marking crosswalk bus stop kiosk church spire tower ridge river quay bridge arch'.split(' ');


function sentence(seed, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(WORDS[(seed * 31 + i * 17) % WORDS.length]);
  return out.join(' ');
}

/** A depth-3 answer of about 5 KB, as the service sends it. */
export function body(i) {
  const city = CITIES[i % CITIES.length];
  return {
    success: true, analysis_id: `an_bench_${i.toString(16).padStart(8, '0')}`, model: 'orca-1.5', depth: 3, timing_ms: 83000 + (i % 5000), confidence: (i % 97) / 100,
    location: { latitude: -60 + ((i * 7919) % 12000) / 100, longitude: -170 + ((i * 104729) % 34000) / 100, country: 'Benchland', city, neighborhood: `Quarter ${i % 50}`, address: `${i % 300} ${city} Street` },
    reasoning: sentence(i, 260), thinking: sentence(i + 1, 160),
    visual_clues: Array.from({ length: 6 }, (_, k) => ({ label: WORDS[(i + k) % WORDS.length], detail: '' })),
    forensic: {
      precision_tier: 'city_level', verification_status: 'partially_verified', supports: [sentence(i, 12), sentence(i + 2, 12)], contradictions: [sentence(i + 3, 8)],
      candidates: Array.from({ length: 3 }, (_, k) => ({ lat: k, lng: k, label: `${city} ${k}`, confidence: 60 - k * 10, supports: [sentence(i + k, 6)], contradictions: [] })),
    },
    calibration: { abstain: false, abstain_below: 0.3, publish_policy: 'publish with caveats' },
  };
}

