/**
 * Names people use that the offline index (GeoNames' English names) does not hold: former names
 * and exonyms ("Kiev"), local spellings ("München"), the usual short forms of the largest cities
 * ("NYC"), and the postal abbreviations of US states and Canadian provinces ("Springfield, IL").
 * Each alias gives the query the index answers, qualified so the name alone cannot find another
 * place ("Odessa" is also in Texas: the alias is the city of a million, and "Odessa, TX" still
 * finds Texas, search.ts). Keys are normalized as normName does (lower case, no accents or dots).
 */

export const PLACE_ALIASES: Readonly<Record<string, string>> = {
  // Former names and exonyms.
  kiev: 'Kyiv, UA',
  kharkov: 'Kharkiv, UA',
  odessa: 'Odesa, UA',
  lvov: 'Lviv, UA',
  lemberg: 'Lviv, UA',
  dnepropetrovsk: 'Dnipro, UA',
  dnipropetrovsk: 'Dnipro, UA',
  zaporizhzhia: 'Zaporizhzhya, UA',
  zaporozhye: 'Zaporizhzhya, UA',
  artemivsk: 'Bakhmut, UA',
  artyomovsk: 'Bakhmut, UA',
  leningrad: 'Saint Petersburg, RU',
  petrograd: 'Saint Petersburg, RU',
  'st petersburg': 'Saint Petersburg, RU',
  bombay: 'Mumbai, IN',
  calcutta: 'Kolkata, IN',
  madras: 'Chennai, IN',
  bangalore: 'Bengaluru, IN',
  peking: 'Beijing, CN',
  saigon: 'Ho Chi Minh City, VN',
  rangoon: 'Yangon, MM',
  dacca: 'Dhaka, BD',
  'alma ata': 'Almaty, KZ',
  'nur sultan': 'Astana, KZ',
  ulaanbaatar: 'Ulan Bator, MN',
  constantinople: 'Istanbul, TR',
  cracow: 'Kraków, PL',
  // Local names where the index has the English one.
  munchen: 'Munich, DE',
  koln: 'Köln, DE',
  cologne: 'Köln, DE',
  wien: 'Vienna, AT',
  praha: 'Prague, CZ',
  warszawa: 'Warsaw, PL',
  moskva: 'Moscow, RU',
  roma: 'Rome, IT',
  milano: 'Milan, IT',
  firenze: 'Florence, IT',
  napoli: 'Naples, IT',
  torino: 'Turin, IT',
  lisboa: 'Lisbon, PT',
  'den haag': 'The Hague, NL',
  bruxelles: 'Brussels, BE',
  kobenhavn: 'Copenhagen, DK',
  // Short forms of the largest cities.
  'new york': 'New York City, US',
  nyc: 'New York City, US',
  la: 'Los Angeles, CA, US',
  sf: 'San Francisco, CA, US',
  'washington dc': 'Washington, DC, US',
  'washington d c': 'Washington, DC, US',
  dc: 'Washington, DC, US',
  philly: 'Philadelphia, PA, US',
  vegas: 'Las Vegas, NV, US',
  frankfurt: 'Frankfurt am Main, DE',
  rio: 'Rio de Janeiro, BR',
  'sao paulo': 'São Paulo, BR',
  cdmx: 'Mexico City, MX',
  hk: 'Hong Kong, HK',
};

/** Postal abbreviations of first-level regions, by country code: the region's name as the index writes it. */
export const REGION_ABBREVIATIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  us: {
    al: 'Alabama', ak: 'Alaska', az: 'Arizona', ar: 'Arkansas', ca: 'California', co: 'Colorado', ct: 'Connecticut', de: 'Delaware',
    dc: 'District of Columbia', fl: 'Florida', ga: 'Georgia', hi: 'Hawaii', id: 'Idaho', il: 'Illinois', in: 'Indiana', ia: 'Iowa',
    ks: 'Kansas', ky: 'Kentucky', la: 'Louisiana', me: 'Maine', md: 'Maryland', ma: 'Massachusetts', mi: 'Michigan', mn: 'Minnesota',
    ms: 'Mississippi', mo: 'Missouri', mt: 'Montana', ne: 'Nebraska', nv: 'Nevada', nh: 'New Hampshire', nj: 'New Jersey',
    nm: 'New Mexico', ny: 'New York', nc: 'North Carolina', nd: 'North Dakota', oh: 'Ohio', ok: 'Oklahoma', or: 'Oregon',
    pa: 'Pennsylvania', ri: 'Rhode Island', sc: 'South Carolina', sd: 'South Dakota', tn: 'Tennessee', tx: 'Texas', ut: 'Utah',
    vt: 'Vermont', va: 'Virginia', wa: 'Washington', wv: 'West Virginia', wi: 'Wisconsin', wy: 'Wyoming',
  },
  ca: {
    ab: 'Alberta', bc: 'British Columbia', mb: 'Manitoba', nb: 'New Brunswick', nl: 'Newfoundland and Labrador',
    nt: 'Northwest Territories', ns: 'Nova Scotia', nu: 'Nunavut', on: 'Ontario', pe: 'Prince Edward Island', qc: 'Quebec',
    sk: 'Saskatchewan', yt: 'Yukon',
  },
};
