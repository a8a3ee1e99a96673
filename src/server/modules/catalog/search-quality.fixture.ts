/**
 * Search quality (ADR 012): a fixed set of queries over the demo catalogue with the answers a shopper expects at the
 * top, checked by catalog-search.test.ts on both drivers.
 */
export type Expectation = { top: string[] } | { first: string[] } | { only: string[] };

export const YAMAHA_FITTED = [
  'Drilled Brake Disc',
  'Sport Seat',
  'O-Ring Drive Chain',
  'Clutch Lever',
  'Bar-End Mirror',
  'Oil Filter',
  'Iridium Spark Plug',
  'Off-Road Tyre',
  'Exhaust Silencer',
  'Sintered Brake Pads',
];

export const QUERIES: [string, Expectation][] = [
  // Words and their plural or singular.
  ['brake pads', { top: ['Sintered Brake Pads'] }],
  ['brake pad', { top: ['Sintered Brake Pads'] }],
  ['brake', { first: ['Drilled Brake Disc', 'Sintered Brake Pads'] }],
  ['brakes', { first: ['Drilled Brake Disc', 'Sintered Brake Pads'] }],
  ['brake discs', { top: ['Drilled Brake Disc'] }],
  ['helmets', { top: ['Full-Face Helmet'] }],
  ['glove', { top: ['Riding Gloves'] }],
  ['riding', { first: ['Riding Boots', 'Riding Gloves'] }],
  ['spark plugs', { top: ['Iridium Spark Plug'] }],
  ['tyres', { top: ['Off-Road Tyre'] }],
  ['off road tyre', { top: ['Off-Road Tyre'] }],
  ['drive chains', { top: ['O-Ring Drive Chain'] }],
  // Typos.
  ['brak pads', { top: ['Sintered Brake Pads'] }],
  ['drilled disk', { top: ['Drilled Brake Disc'] }],
  ['helmt', { top: ['Full-Face Helmet'] }],
  ['oil filtr', { top: ['Oil Filter'] }],
  ['iridum plug', { top: ['Iridium Spark Plug'] }],
  ['exaust silencer', { top: ['Exhaust Silencer'] }],
  // Part numbers, MPN and OEM, in every spelling: the part is first.
  ['KMC-520', { top: ['O-Ring Drive Chain'] }],
  ['kmc 520', { top: ['O-Ring Drive Chain'] }],
  ['kmc520', { top: ['O-Ring Drive Chain'] }],
  ['fa185hh', { top: ['Sintered Brake Pads'] }],
  ['FA-185-HH', { top: ['Sintered Brake Pads'] }],
  ['1C3 W0045 00', { top: ['Sintered Brake Pads'] }],
  ['cr8eix', { top: ['Iridium Spark Plug'] }],
  ['HF 204', { top: ['Oil Filter'] }],
  ['5gh.13440.61', { top: ['Oil Filter'] }],
  // Brands, alone, misspelt and with product words.
  ['ebc', { only: ['Sintered Brake Pads'] }],
  ['ebc brake pads', { top: ['Sintered Brake Pads'] }],
  ['galfer', { only: ['Drilled Brake Disc'] }],
  ['alpinestars', { only: ['Riding Boots', 'Riding Gloves'] }],
  ['alpinstars gloves', { top: ['Riding Gloves'] }],
  ['ngk spark plug', { top: ['Iridium Spark Plug'] }],
  ['akrapovich', { only: ['Exhaust Silencer'] }],
  // Vehicle makes and models (the fitment rows), misspelt too, with product words.
  ['yamah', { only: YAMAHA_FITTED }],
  ['yamaha', { only: YAMAHA_FITTED }],
  ['yz250f brake pads', { top: ['Sintered Brake Pads'] }],
  ['yamaha yz250f chain', { top: ['O-Ring Drive Chain'] }],
  ['harley headlight', { only: ['LED Headlight'] }],
  ['mt-07 exhaust', { top: ['Exhaust Silencer'] }],
  // Categories, stop words, and words only the description has.
  ['levers', { only: ['Clutch Lever'] }],
  ['protection', { top: ['Chest Protector'] }],
  ['pads for a yamaha', { top: ['Sintered Brake Pads'] }],
  ['waterproof', { only: ['Riding Boots'] }],
  ['goatskin gloves', { only: ['Riding Gloves'] }],
];

/**
 * A rider's searches (ADR 030): brake pads added beside the demo catalogue's, most without "Brake" in their names,
 * for the 2019 Yamaha MT-07, another bike and every bike. Checked with no vehicle chosen and with the MT-07 chosen.
 */
export const RIDER_PARTS: { name: string; description: string; fits: string | 'universal' }[] = [
  { name: 'Sintered Front Pads', description: 'Sintered brake pads for twin front calipers.', fits: 'MT-07' },
  { name: 'Organic Rear Pads', description: 'Quiet organic brake pads for the rear caliper.', fits: 'MT-07' },
  { name: 'Track Day Pads', description: 'Race compound brake pads.', fits: 'Z900' },
  { name: 'Brake Pad Spreader', description: 'Pushes caliper pistons back to fit new pads.', fits: 'universal' },
];

/** The pads that fit the MT-07: its own and the universal ones. */
export const MT07_PADS = ['Sintered Front Pads', 'Organic Rear Pads', 'Brake Pad Spreader'];
/** Every pad: the demo catalogue's and the rider fixture's. */
export const ALL_PADS = [...RIDER_PARTS.map((part) => part.name), 'Sintered Brake Pads'];

/** With no vehicle chosen: the vehicle words act as the vehicle's fitment; a typo reaches what its word reaches. */
export const RIDER_QUERIES: [string, string[]][] = [
  ['brake pads', ALL_PADS],
  ['brak pads', ALL_PADS],
  ['brake pade', ALL_PADS],
  ['mt07 brake pads', MT07_PADS],
  ['mt-07 brake pads', MT07_PADS],
  ['MT 07 brake pads', MT07_PADS],
  ['yamaha mt07 brake pads', MT07_PADS],
  ['brake pads mt07', MT07_PADS],
  ['mt07 brak pads', MT07_PADS],
];

/** With the 2019 MT-07 chosen (the list limited to it): words naming it are left out, typos as above. */
export const RIDER_QUERIES_MT07: [string, string[]][] = [
  ['brake pads', MT07_PADS],
  ['brak pads', MT07_PADS],
  ['mt07 brake pads', MT07_PADS],
  ['mt-07 brake pads', MT07_PADS],
  ['MT 07 brake pads', MT07_PADS],
  ['yamaha mt07 brake pads', MT07_PADS],
  ['yamaha brake pads', MT07_PADS],
];
